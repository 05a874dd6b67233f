// CuptiTracer on whatever machine runs the suite: without a GPU (or CUPTI) start() answers
// false with CUPTI's reason and nothing throws; with one, tracing starts and stops cleanly. The
// results object says which, in the documented shape (docs/results-schema.md, "CUPTI").
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bench/telemetry/cupti_results.h"
#include "bench/telemetry/cupti_tracer.h"
#include "common/util/clock.h"

using namespace infergate;

TEST_CASE("the CUPTI tracer starts, or says why not, and never throws", "[bench][telemetry]") {
  CuptiTracer tracer;
  const int64_t begin = now_ns();
  const bool started = tracer.start();
  CHECK(started == tracer.available());
  if (!started) {
    INFO("unavailable: " << tracer.unavailable_reason());
    CHECK_FALSE(tracer.unavailable_reason().empty());
  }
  tracer.stop();
  tracer.stop();  // idempotent
  const int64_t end = now_ns();
  CHECK(tracer.dropped_records() == 0);

  const nlohmann::json j = cupti_results_json(tracer, begin, end);
  CHECK(j.at("enabled") == true);
  CHECK(j.at("available") == started);
  CHECK(j.at("kernels").is_array());
  CHECK(j.at("memcpys").is_array());
  CHECK(j.at("dropped_records") == 0);
  if (started) {
    CHECK(j.at("unavailable_reason").is_null());
    CHECK(j.at("gpu_busy_fraction").get<double>() >= 0);  // nothing ran: no kernels to see
    CHECK(j.at("gpu_busy_fraction").get<double>() <= 1);
  } else {
    CHECK(j.at("unavailable_reason") == tracer.unavailable_reason());
    CHECK(j.at("gpu_busy_fraction").is_null());
    CHECK(j.at("kernels").empty());
  }
}

TEST_CASE("one CUPTI tracer records at a time, and the next may start after it stops",
          "[bench][telemetry]") {
  CuptiTracer first;
  if (!first.start()) {
    SUCCEED("CUPTI is unavailable here: " << first.unavailable_reason());
    return;
  }
  CuptiTracer second;
  CHECK_FALSE(second.start());
  CHECK(second.unavailable_reason().find("already recording") != std::string::npos);
  first.stop();
  CHECK(second.start());
  second.stop();
}
