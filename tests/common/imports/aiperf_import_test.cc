// AIPerf's profile_export_aiperf.json imported (common/imports/aiperf_import.h): with its
// profile_export.jsonl beside it our distributions are recomputed from the records; alone, its
// summary blocks are mapped by their units; a schema it does not know, a unit it cannot convert,
// or records of another run are refused naming the field.
#include <catch2/catch.hpp>

#include "common/imports/import_error.h"
#include "common/imports/import_results_file.h"
#include "tests/common/imports/import_test_files.h"

using namespace infergate;
using namespace infergate::testing;
using nlohmann::json;

namespace {

// The summary alone in a folder of its own (no records beside it).
json import_summary_only(const json& summary) {
  const TempDir dir;
  return import_results_file(write_text(dir, "profile_export_aiperf.json", summary.dump(2)));
}

}  // namespace

TEST_CASE("an aiperf export with its records imports with our statistics") {
  const json doc = import_results_file(import_fixture("aiperf_profile_export.json"));
  const json s = accepted_summary(doc);
  CHECK(s["num_requests"] == 8);
  CHECK(s["num_completed"] == 7);
  CHECK(s["num_errors"] == 1);
  CHECK(s["ttft_ms"]["count"] == 7);
  CHECK(s["ttft_ms"]["mean"].get<double>() == Approx(109.142857));
  CHECK(s["ttft_ms"]["p95"].get<double>() == Approx(139.2));
  CHECK(s["tpot_ms"]["count"] == 6);  // AIPerf's inter_token_latency, recomputed
  CHECK(s["tpot_ms"]["mean"].get<double>() == Approx(20.636111));
  CHECK(s["itl_ms"]["count"] == 27);  // its inter_chunk_latency, one token per chunk here
  CHECK(s["itl_ms"]["mean"].get<double>() == Approx(20.703704));
  CHECK(s["e2e_ms"]["mean"].get<double>() == Approx(189.0));
  CHECK(s["output_tokens"]["mean"].get<double>() == Approx(34.0 / 7));
  CHECK(s["duration_s"].get<double>() == Approx(0.4133));  // "sec"
  CHECK(s["output_throughput_tps"].get<double>() == Approx(82.264699));
  CHECK(s["total_throughput_tps"].get<double>() == Approx((902.0 + 34.0) / 0.4133));
  CHECK(s["send_lag_ms"] == json::object());  // no credit_issued_ns in 0.10.0 records
  const json& imported = doc["workload"]["imported"];
  CHECK(imported["version"] == "0.10.0 (schema 1.3)");
  CHECK(doc["workload"]["name"] == "aiperf/meta-llama/Llama-3.1-8B-Instruct");
  CHECK(doc["workload"]["load"] ==
        json({{"mode", "closed"}, {"concurrency", 4}, {"num_requests", 8}}));
  CHECK(doc["created_at"] == "2026-08-12T14:05:03");
  const std::string notes = imported["notes"].dump();
  CHECK_THAT(notes, Catch::Contains("per-request records read from"));
  CHECK_THAT(notes, Catch::Contains("tpot_ms is AIPerf's inter_token_latency"));
  CHECK_THAT(notes, Catch::Contains("from the actual send"));
  const json& errors = doc["points"][0]["repetitions"][0]["errors"];
  CHECK(errors == json::parse(R"([{"class": "Internal Server Error", "count": 1,
                                   "first_message": "Internal Server Error"}])"));
}

TEST_CASE("an aiperf export alone maps its summary blocks") {
  const json s = accepted_summary(import_summary_only(read_fixture("aiperf_profile_export.json")));
  CHECK(s["ttft_ms"] == json({{"count", 7},
                              {"mean", 109.14285714285714},
                              {"min", 88.0},
                              {"p50", 98.0},
                              {"p90", 137.4},
                              {"p95", 139.2},
                              {"p99", 140.64000000000001},
                              {"max", 141.0}}));
  CHECK(s["itl_ms"]["count"] == 27);
  CHECK(s["tpot_ms"]["p99"].get<double>() == Approx(21.158333));
  CHECK(s["input_tokens"]["p50"] == 128.0);
}

TEST_CASE("aiperf values are converted by the unit each block declares") {
  json file = read_fixture("aiperf_profile_export.json");
  file["time_to_first_token"]["unit"] = "sec";
  for (auto& [key, v] : file["time_to_first_token"].items()) {
    if (v.is_number() && key != "count") v = v.get<double>() / 1000;
  }
  const json s = accepted_summary(import_summary_only(file));
  CHECK(s["ttft_ms"]["mean"].get<double>() == Approx(109.142857));
  file["time_to_first_token"]["unit"] = "fortnights";
  REQUIRE_THROWS_WITH(import_summary_only(file),
                      Catch::Contains("$.time_to_first_token.unit: 'fortnights' is not a unit"));
}

TEST_CASE("an aiperf schema 2.0 or unknown 1.x export is refused naming the version") {
  json file = read_fixture("aiperf_profile_export.json");
  file["schema_version"] = "2.0";
  REQUIRE_THROWS_AS(import_summary_only(file), ImportError);
  REQUIRE_THROWS_WITH(import_summary_only(file),
                      Catch::Contains("$.schema_version: AIPerf schema_version \"2.0\"") &&
                          Catch::Contains("native report"));
  file["schema_version"] = "1.9";
  REQUIRE_THROWS_WITH(import_summary_only(file), Catch::Contains("\"1.9\" is not one"));
}

TEST_CASE("aiperf records of another run than the summary are refused") {
  const TempDir dir;
  const std::string records = read_text(import_fixture("aiperf_profile_export.jsonl"));
  write_text(dir, "profile_export.jsonl", records.substr(0, records.rfind("\n{")));  // 7 of 8
  const std::string summary = write_text(dir, "profile_export_aiperf.json",
                                         read_text(import_fixture("aiperf_profile_export.json")));
  REQUIRE_THROWS_WITH(import_results_file(summary),
                      Catch::Contains("$.request_count: 7 successful and 1 failed") &&
                          Catch::Contains("holds 6 and 1"));
}

TEST_CASE("an aiperf record with a negative latency is refused naming its line") {
  const TempDir dir;
  std::string records = read_text(import_fixture("aiperf_profile_export.jsonl"));
  const size_t at = records.find("\"value\":120.0");
  REQUIRE(at != std::string::npos);
  records.replace(at, 13, "\"value\":-120.0");
  write_text(dir, "profile_export.jsonl", records);
  const std::string summary = write_text(dir, "profile_export_aiperf.json",
                                         read_text(import_fixture("aiperf_profile_export.json")));
  REQUIRE_THROWS_WITH(
      import_results_file(summary),
      Catch::Contains("profile_export.jsonl: line 1: $.metrics.time_to_first_token.value: -120 "
                      "is negative"));
}

TEST_CASE("aiperf per-request records given alone are refused with what to import instead") {
  REQUIRE_THROWS_WITH(import_results_file(import_fixture("aiperf_profile_export.jsonl")),
                      Catch::Contains("import the profile_export_aiperf.json beside it"));
}
