// Metrics that may be null (peak_gpu_memory_bytes without NVML) and the optional per-repetition
// `cupti` object: averaging, reading back and gating must all take them in their stride.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/measured_workload.h"
#include "common/results/metric_key.h"
#include "common/results/results_file.h"
#include "common/results/summary_mean.h"

using namespace infergate;
using nlohmann::json;

namespace {

json summary(const json& peak_gpu) {
  return {{"peak_memory_bytes", 100.0}, {"peak_gpu_memory_bytes", peak_gpu}};
}

json results_doc(const json& repetition) {
  return {{"schema", kResultsSchema},
          {"workload", {{"name", "w"}}},
          {"workload_hash", measured_workload_hash({{"name", "w"}}, "")},
          {"manifest", json::object()},
          {"points",
           {{{"sweep", nullptr}, {"summary", json::object()}, {"repetitions", {repetition}}}}}};
}

}  // namespace

TEST_CASE("a metric null in every repetition stays null in the mean") {
  const json mean = mean_of_summaries({summary(nullptr), summary(nullptr)});
  CHECK(mean.at("peak_gpu_memory_bytes").is_null());
  CHECK(mean.at("peak_memory_bytes") == 100.0);
}

TEST_CASE("a metric null in some repetitions is the mean of the others") {
  CHECK(mean_of_summaries({summary(nullptr), summary(2e9), summary(4e9)})
            .at("peak_gpu_memory_bytes") == 3e9);
  CHECK(mean_of_summaries({summary(2e9), summary(nullptr)}).at("peak_gpu_memory_bytes") == 2e9);
}

TEST_CASE("a null metric reads as absent, so a gate on it says so instead of failing") {
  CHECK_FALSE(metric_value(summary(nullptr), parse_metric_key("summary.peak_gpu_memory_bytes")));
  CHECK(*metric_value(summary(5.0), parse_metric_key("summary.peak_gpu_memory_bytes")) == 5.0);
}

TEST_CASE("a repetition's cupti object survives reading and rewriting a results file") {
  const json cupti = {
      {"enabled", true},          {"available", false},       {"unavailable_reason", "no GPU"},
      {"kernels", json::array()}, {"memcpys", json::array()}, {"gpu_busy_fraction", nullptr},
      {"dropped_records", 0}};
  const json with = {{"repetition", 0}, {"summary", summary(nullptr)}, {"cupti", cupti}};
  const ResultsFile r = parse_results(results_doc(with), "r.json");
  const std::optional<CuptiRecord>& read = r.points.at(0).repetitions.at(0).cupti;
  REQUIRE(read);
  CHECK_FALSE(read->available);
  CHECK(read->unavailable_reason == "no GPU");
  CHECK(to_json(*read) == cupti);
  CHECK(results_to_json(r)["points"][0]["repetitions"][0]["cupti"] == cupti);

  const json without = {{"repetition", 0}, {"summary", summary(nullptr)}};
  const ResultsFile plain = parse_results(results_doc(without), "r.json");
  CHECK_FALSE(plain.points.at(0).repetitions.at(0).cupti);
  CHECK_FALSE(results_to_json(plain)["points"][0]["repetitions"][0].contains("cupti"));

  json bad = with;
  bad["cupti"] = "yes";
  CHECK_THROWS_WITH(
      parse_results(results_doc(bad), "r.json"),
      Catch::Contains("r.json: $.points[0].repetitions[0].cupti: expected an object"));
  bad = with;
  bad["cupti"]["kernels"] = {{{"name", "gemv"}, {"count", "3"}, {"total_ms", 1.0}}};
  CHECK_THROWS_WITH(
      parse_results(results_doc(bad), "r.json"),
      Catch::Contains("r.json: $.points[0].repetitions[0].cupti.kernels[0].count: expected a "
                      "number, got string"));
}
