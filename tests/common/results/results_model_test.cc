#include <catch2/catch.hpp>

#include "common/results/metric_key.h"
#include "common/results/request_samples.h"
#include "common/results/results_file.h"

using namespace infergate;

namespace {

ResultsFile fixture(const std::string& name) {
  return load_results(std::string(INFERGATE_SOURCE_DIR) + "/tests/gates/data/" + name);
}

}  // namespace

TEST_CASE("per-request samples reproduce the harness's latency percentiles") {
  const ResultsFile r = fixture("quickstart-baseline.json");
  for (const RepetitionResult& rep : r.points.at(0).repetitions) {
    for (const char* metric : {"ttft_ms", "tpot_ms", "e2e_ms", "itl_ms"}) {
      for (const char* stat : {"p50", "p95", "p99", "mean", "max"}) {
        INFO(metric << "." << stat << " in repetition " << rep.index);
        const MetricKey key = parse_metric_key(std::string("summary.") + metric + "." + stat);
        const auto recomputed = sample_statistic(request_samples(rep.requests, metric), stat);
        REQUIRE(recomputed);
        // the fixture's request times are rounded to 1 us; the harness used nanoseconds
        CHECK(*recomputed == Approx(*metric_value(rep.summary, key)).margin(0.01));
      }
    }
  }
}

TEST_CASE("metric keys read scalars, stats and flags from a summary") {
  const nlohmann::json s = {
      {"tpot_ms", {{"p95", 3.5}}}, {"request_throughput_rps", 8}, {"harness_limited", true}};
  CHECK(*metric_value(s, parse_metric_key("summary.tpot_ms.p95")) == 3.5);
  CHECK(*metric_value(s, parse_metric_key("summary.request_throughput_rps")) == 8);
  CHECK(*metric_value(s, parse_metric_key("summary.harness_limited")) == 1);
  CHECK_FALSE(metric_value(s, parse_metric_key("summary.tpot_ms.p99")));
  CHECK_FALSE(metric_value(s, parse_metric_key("summary.ttft_ms.p95")));
  CHECK(parse_metric_key("summary.tpot_ms.p95").is_per_request_stat());
  CHECK_FALSE(parse_metric_key("summary.request_throughput_rps").is_per_request_stat());
}

TEST_CASE("results round-trip through results_to_json with added repetitions re-averaged") {
  ResultsFile r = fixture("quickstart-baseline.json");
  const size_t n = r.num_repetitions();
  RepetitionResult extra = r.points[0].repetitions[0];
  extra.index = int(n);
  extra.requests.clear();  // a summary of its own, without records to match
  extra.summary["tpot_ms"]["p95"] = 1000.0;
  extra.summary["tpot_ms"]["p99"] = extra.summary["tpot_ms"]["max"] = 1000.0;
  r.points[0].repetitions.push_back(extra);
  const ResultsFile back = parse_results(results_to_json(r), "back.json");
  REQUIRE(back.num_repetitions() == n + 1);
  double sum = 0;
  for (const RepetitionResult& rep : back.points[0].repetitions) {
    sum += rep.summary["tpot_ms"]["p95"].get<double>();
  }
  CHECK(back.points[0].summary["tpot_ms"]["p95"].get<double>() == Approx(sum / double(n + 1)));
  CHECK(back.workload_hash == r.workload_hash);
}

TEST_CASE("sweep points are labelled and matched by their sweep value") {
  const ResultsFile r = fixture("rate-sweep.json");
  REQUIRE(r.points.size() > 1);
  CHECK(sweep_point_label(r.points[1]) == "load.rate=4.0");
  CHECK(point_with_same_sweep(r, r.points[1]) == &r.points[1]);
  CHECK(sweep_point_label(fixture("quickstart-baseline.json").points[0]).empty());
}
