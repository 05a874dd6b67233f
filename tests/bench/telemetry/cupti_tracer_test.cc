// CuptiTracer on whatever machine runs the suite: without a GPU (or CUPTI) start() answers
// false with CUPTI's reason and nothing throws; with one, tracing starts and stops cleanly. The
// results section says which, in the documented shape (docs/results-schema.md, "CUPTI").
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

  const CuptiRecord c = cupti_record(tracer, begin, end);
  CHECK(c.enabled);
  CHECK(c.available == started);
  CHECK(c.dropped_records == 0);
  if (started) {
    CHECK_FALSE(c.unavailable_reason);
    REQUIRE(c.gpu_busy_fraction);
    CHECK(*c.gpu_busy_fraction >= 0);  // nothing ran: no kernels to see
    CHECK(*c.gpu_busy_fraction <= 1);
  } else {
    CHECK(c.unavailable_reason == tracer.unavailable_reason());
    CHECK_FALSE(c.gpu_busy_fraction);
    CHECK(c.kernels.empty());
  }
  const nlohmann::json j = to_json(c);  // the documented shape, null where unavailable
  CHECK(j.at("available") == started);
  CHECK(j.at("kernels").is_array());
  CHECK(j.at("memcpys").is_array());
  CHECK(j.at("gpu_busy_fraction").is_null() == !started);
  CHECK(j.at("unavailable_reason").is_null() == started);
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
