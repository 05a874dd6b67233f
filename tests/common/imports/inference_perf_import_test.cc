// inference-perf's summary_lifecycle_metrics.json imported
// (common/imports/inference_perf_import.h): its summaries in seconds become ours in ms, the
// counts it does not write are left out rather than guessed, and a report whose counts do not
// add up, of an older layout, or of the server's Prometheus metrics is refused.
#include <catch2/catch.hpp>

#include "common/imports/import_error.h"
#include "common/imports/import_results_file.h"
#include "tests/common/imports/import_test_files.h"

using namespace infergate;
using namespace infergate::testing;
using nlohmann::json;

namespace {

const char* kFixture = "inference_perf_summary_lifecycle_metrics.json";

}  // namespace

TEST_CASE("an inference-perf lifecycle report imports its summaries in our units") {
  const json doc = import_results_file(import_fixture(kFixture));
  const json s = accepted_summary(doc);
  CHECK(s["num_requests"] == 8);
  CHECK(s["num_completed"] == 7);
  CHECK(s["num_errors"] == 1);
  // Over 6 requests: inference-perf leaves the one-token response out of TTFT.
  CHECK(s["ttft_ms"]["mean"].get<double>() == Approx(111.0));
  CHECK_FALSE(s["ttft_ms"].contains("count"));
  CHECK(s["ttft_ms"]["min"].get<double>() == Approx(88.0));
  CHECK(s["tpot_ms"]["mean"].get<double>() == Approx(20.636111));
  CHECK(s["itl_ms"]["mean"].get<double>() == Approx(20.703704));
  CHECK(s["e2e_ms"]["count"] == 7);
  CHECK(s["e2e_ms"]["mean"].get<double>() == Approx(189.7));
  CHECK(s["input_tokens"]["mean"].get<double>() == Approx(902.0 / 7));
  CHECK(s["send_lag_ms"]["mean"].get<double>() == Approx(0.37));
  CHECK(s["duration_s"].get<double>() == Approx(0.414));
  CHECK(s["request_throughput_rps"].get<double>() == Approx(16.908213));
  CHECK(s["prefix_cache_hit_rate"] == 0.0);  // the server's cached prompt tokens: none
  CHECK(doc["workload"]["name"] == "inference-perf/unknown-model");
  CHECK_FALSE(doc["created_at"].get<std::string>().empty());  // the file's time
  const std::string notes = doc["workload"]["imported"]["notes"].dump();
  CHECK_THAT(notes, Catch::Contains("single-token responses out of TTFT"));
  CHECK_THAT(notes, Catch::Contains("normalized_time_per_output_token"));
  const json& errors = doc["points"][0]["repetitions"][0]["errors"];
  CHECK(errors == json::parse(R"([{"class": "500 - Internal Server Error", "count": 1,
                                   "first_message": "Internal Server Error"}])"));
}

TEST_CASE("inference-perf counts that do not add up are refused naming the count") {
  json file = read_fixture(kFixture);
  file["load_summary"]["count"] = 9;
  REQUIRE_THROWS_WITH(import_edited(file, "summary_lifecycle_metrics.json", 2),
                      Catch::Contains("$.load_summary.count: 9 is not successes.count"));
}

TEST_CASE("an inference-perf non-finite or negative latency is refused naming it") {
  json file = read_fixture(kFixture);
  file["successes"]["latency"]["time_to_first_token"]["p99"] = -0.2;
  REQUIRE_THROWS_WITH(
      import_edited(file, "summary_lifecycle_metrics.json", 2),
      Catch::Contains("$.successes.latency.time_to_first_token.p99: -0.2 is negative"));
  const TempDir dir;
  std::string text = read_fixture(kFixture).dump();
  const std::string mean = "\"mean\":0.18969999999223677";
  REQUIRE(text.find(mean) != std::string::npos);
  text.replace(text.find(mean), mean.size(), "\"mean\":NaN");
  REQUIRE_THROWS_WITH(import_results_file(write_text(dir, "nan.json", text)),
                      Catch::Contains("not JSON at line 1") && Catch::Contains("bare NaN"));
}

TEST_CASE("inference-perf reports it cannot read are refused saying what they are") {
  json file = read_fixture(kFixture);
  file["successes"]["rate"] = 16.9;
  REQUIRE_THROWS_WITH(import_edited(file, "summary_lifecycle_metrics.json", 2),
                      Catch::Contains("prometheus_metrics"));
  file = read_fixture(kFixture);
  file.erase("benchmark_time_seconds");
  REQUIRE_THROWS_WITH(import_edited(file, "summary_lifecycle_metrics.json", 2),
                      Catch::Contains("older than v0.6"));
}
