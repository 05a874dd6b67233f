// GuideLLM's benchmarks.json imported (common/imports/guidellm_import.h): a report that keeps
// every request gives our statistics recomputed from them (GuideLLM's inter_token_latency_ms
// is our TPOT, unweighted here); a sampled report maps only what means the same as ours; an
// older report layout or inconsistent totals are refused naming the field.
#include <catch2/catch.hpp>

#include "common/imports/import_error.h"
#include "common/imports/import_results_file.h"
#include "tests/common/imports/import_test_files.h"

using namespace infergate;
using namespace infergate::testing;
using nlohmann::json;

TEST_CASE("a guidellm report with every request imports with our statistics") {
  const json doc = import_results_file(import_fixture("guidellm_benchmarks.json"));
  const json s = accepted_summary(doc);
  CHECK(s["num_requests"] == 8);
  CHECK(s["num_completed"] == 7);
  CHECK(s["num_errors"] == 1);
  CHECK(s["num_aborted"] == 0);
  // GuideLLM stores float32-rounded times: within a microsecond of the run's.
  CHECK(s["ttft_ms"]["count"] == 7);
  CHECK(s["ttft_ms"]["mean"].get<double>() == Approx(109.142857).margin(1e-3));
  CHECK(s["ttft_ms"]["p99"].get<double>() == Approx(140.64).margin(1e-3));
  // Unweighted over the 6 requests with 2 tokens or more, not GuideLLM's token-weighted 20.7037.
  CHECK(s["tpot_ms"]["count"] == 6);
  CHECK(s["tpot_ms"]["mean"].get<double>() == Approx(20.636111).margin(1e-3));
  // Its request_latency ends at the request's end, 0.8 ms after the last token here.
  CHECK(s["e2e_ms"]["mean"].get<double>() == Approx(189.7998537).margin(1e-3));
  CHECK(s["itl_ms"] == json::object());  // GuideLLM records no chunk gaps
  CHECK(s["send_lag_ms"]["count"] == 8);
  CHECK(s["duration_s"].get<double>() == Approx(0.41409993));
  CHECK(s["request_throughput_rps"].get<double>() == Approx(7 / 0.41409993));
  CHECK(s["output_throughput_tps"].get<double>() == Approx(34 / 0.41409993));
  CHECK(doc["created_at"] == "2026-08-12T14:05:03Z");  // Unix seconds: UTC
  CHECK(doc["workload"]["name"] == "guidellm/meta-llama/Llama-3.1-8B-Instruct");
  CHECK(doc["workload"]["load"] == json({{"mode", "closed"}, {"concurrency", 4}}));
  CHECK(doc["workload"]["imported"]["version"] == "0.7.3 (report version 2)");
  const std::string notes = doc["workload"]["imported"]["notes"].dump();
  CHECK_THAT(notes, Catch::Contains("time_per_output_token_ms"));
  CHECK_THAT(notes, Catch::Contains("our ITL cannot be recovered"));
  const json& errors = doc["points"][0]["repetitions"][0]["errors"];
  REQUIRE(errors.size() == 1);
  CHECK_THAT(errors[0]["class"].get<std::string>(), Catch::StartsWith("HTTPStatusError"));
}

TEST_CASE("a sampled guidellm report maps its summaries without the weighted statistics") {
  json file = read_fixture("guidellm_benchmarks.json");
  file["benchmarks"][0]["requests"]["successful"].erase(0);  // a sample of 6 of the 7
  const json doc = import_edited(file, "benchmarks.json");
  const json s = accepted_summary(doc);
  CHECK(s["ttft_ms"]["count"] == 7);
  CHECK(s["ttft_ms"]["mean"].get<double>() == Approx(109.142848));
  CHECK(s["ttft_ms"]["p90"].get<double>() == Approx(141.000032));  // GuideLLM's nearest rank
  CHECK(s["tpot_ms"] == json({{"min", 19.999980926513672}, {"max", 21.166642506917317}}));
  CHECK(s["e2e_ms"]["mean"].get<double>() == Approx(189.7998537));
  CHECK_THAT(doc["workload"]["imported"]["notes"].dump(), Catch::Contains("nearest-rank"));
}

TEST_CASE("a guidellm report of several benchmarks imports as one run each") {
  json file = read_fixture("guidellm_benchmarks.json");
  file["benchmarks"].push_back(file["benchmarks"][0]);
  const TempDir dir;
  const std::vector<json> runs = import_results_runs(write_text(dir, "b.json", file.dump()));
  REQUIRE(runs.size() == 2);
  CHECK(runs[1]["workload"]["name"] ==
        "guidellm/meta-llama/Llama-3.1-8B-Instruct/benchmark-1-concurrent");
}

TEST_CASE("a guidellm report of an older layout is refused naming the version seen") {
  json file = read_fixture("guidellm_benchmarks.json");
  file["metadata"]["version"] = 1;
  REQUIRE_THROWS_WITH(import_edited(file, "benchmarks.json"),
                      Catch::Contains("$.metadata.version: GuideLLM report version 1"));
  file.erase("metadata");
  REQUIRE_THROWS_WITH(import_edited(file, "benchmarks.json"), Catch::Contains("before v0.5"));
}

TEST_CASE("guidellm totals that do not add up are refused naming the total") {
  json file = read_fixture("guidellm_benchmarks.json");
  file["benchmarks"][0]["metrics"]["request_totals"]["total"] = 9;
  REQUIRE_THROWS_WITH(
      import_edited(file, "benchmarks.json"),
      Catch::Contains("$.benchmarks[0].metrics.request_totals.total: 9 is not successful"));
}

TEST_CASE("a guidellm request with a negative latency is refused naming it") {
  json file = read_fixture("guidellm_benchmarks.json");
  file["benchmarks"][0]["requests"]["successful"][2]["request_latency"] = -1.5;
  REQUIRE_THROWS_WITH(
      import_edited(file, "benchmarks.json"),
      Catch::Contains("$.benchmarks[0].requests.successful[2].request_latency: -1.5 is negative"));
}
