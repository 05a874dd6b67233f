#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "common/io/json_file.h"
#include "gates/baseline/noise_profile.h"
#include "gates/calibrate/verdict_rates.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;

namespace {

RuleSet tpot_rules() {
  return parse_rule_set(nlohmann::json::parse(R"({"schema": "infergate.gates/v1", "rules": [
      {"name": "tpot-p95", "metric": "summary.tpot_ms.p95", "better": "lower",
       "threshold": {"relative": 0.05}, "min_repetitions": 5}]})"),
                        "rules.json");
}

}  // namespace

TEST_CASE("noise is the sample standard deviation over repetitions, relative to the mean") {
  const ResultsFile runs =
      results_of({{{"tpot_ms.p95", 9}}, {{"tpot_ms.p95", 10}}, {{"tpot_ms.p95", 11}}});
  const NoiseProfile p = measure_noise(runs, {"summary.tpot_ms.p95"});
  REQUIRE(p.metrics.size() == 1);
  CHECK(p.metrics[0].mean == Approx(10));
  CHECK(p.metrics[0].stddev == Approx(1));
  CHECK(p.metrics[0].cv == Approx(0.1));
  CHECK(p.machine_key == "test-9000-8c");
}

TEST_CASE("the detectable change shrinks with repetitions and grows with noise") {
  // (1.645 + 0.842) * 0.03 * sqrt(2 / (5 * 3 / pi)) = 0.0483
  CHECK(detectable_change(0.03, 5, 0.05) == Approx(0.0483).epsilon(0.01));
  CHECK(detectable_change(0.03, 20, 0.05) < detectable_change(0.03, 5, 0.05));
  CHECK(detectable_change(0.06, 5, 0.05) == Approx(2 * detectable_change(0.03, 5, 0.05)));
}

TEST_CASE("compare warns when a threshold is below what the calibrated noise can detect") {
  NoiseProfile noise;
  noise.metrics.push_back({"summary.tpot_ms.p95", 20, 10, 1, 0.10});
  RuleEvaluation e;
  e.rule.metric = parse_metric_key("summary.tpot_ms.p95");
  e.effective_threshold = 0.05;
  e.baseline_values = e.candidate_values = {1, 2, 3, 4, 5};
  const auto warning = threshold_warning(noise, e, 0.05);
  REQUIRE(warning);
  CHECK_THAT(*warning, Catch::Contains("threshold 5.0% is below the 16.1%") &&
                           Catch::Contains("calibrated over 20 runs"));
  noise.metrics[0].cv = 0.01;
  CHECK_FALSE(threshold_warning(noise, e, 0.05));
}

TEST_CASE("the noise file round-trips and a wrong file is named") {
  NoiseProfile p =
      measure_noise(results_of(noisy("tpot_ms.p95", 20, 0.02, 6, 1)), {"summary.tpot_ms.p95"});
  const std::string path = std::string(INFERGATE_SOURCE_DIR) + "/build/noise-roundtrip.json";
  write_json_atomically(noise_to_json(p), path);
  const NoiseProfile back = load_noise_profile(path);
  CHECK(back.metrics.at(0).cv == Approx(p.metrics.at(0).cv));
  write_json_atomically({{"schema", "other"}}, path);
  CHECK_THROWS_WITH(load_noise_profile(path), Catch::Contains(path + ": $.schema"));
  std::remove(path.c_str());
}

TEST_CASE("A/A splits of quiet runs give no false alarms, and a 15% slowdown is caught") {
  const RuleSet rules = tpot_rules();
  const ResultsFile a = results_of(noisy("tpot_ms.p95", 20, 0.01, 20, 1));
  const ResultsFile b = results_of(noisy("tpot_ms.p95", 23, 0.01, 20, 2));
  const std::vector<VerdictCounts> aa =
      resampled_verdicts(a.points[0], nullptr, rules, "synthetic", {5, 0, 100, 1});
  REQUIRE(aa.size() == 2);  // the rule, then the whole gate
  CHECK(aa[0].trials == 100);
  CHECK(aa[0].regressed == 0);
  CHECK(aa[0].pass + aa[0].inconclusive + aa[0].improved == 100);
  CHECK(aa[1].rule == kGateRow);
  CHECK(aa[1].regressed == 0);
  const std::vector<VerdictCounts> ab =
      resampled_verdicts(a.points[0], &b.points[0], rules, "synthetic", {5, 0, 100, 1});
  CHECK(ab[0].regressed == 100);
  CHECK(ab[1].regressed == 100);
  CHECK_THROWS_WITH(resampled_verdicts(a.points[0], nullptr, rules, "synthetic", {11, 0, 10, 1}),
                    Catch::Contains("needs at least 22 runs"));
}

TEST_CASE("noise profile: the paired section is measured, written and read back, and checked") {
  std::vector<gates_test::RepetitionMetrics> a, b;
  for (int i = 0; i < 6; ++i) {
    a.push_back({{"tpot_ms.p50", 10.0 + i}});
    b.push_back({{"tpot_ms.p50", (10.0 + i) * (i % 2 ? 1.02 : 0.98)}});
  }
  const ResultsFile first = gates_test::results_of(a), second = gates_test::results_of(b);
  NoiseProfile p = measure_noise(first, {"summary.tpot_ms.p50"});
  p.paired = measure_paired_noise(first.points[0], second.points[0], {"summary.tpot_ms.p50"});
  p.seconds_per_pair = 12.5;
  REQUIRE(p.paired.size() == 1);
  CHECK(p.paired[0].pairs == 6);
  CHECK(p.paired[0].log_sd == Approx(std::log(1.02 / 0.98) / 2 * std::sqrt(6.0 / 5)).epsilon(1e-3));
  const std::string path = (std::filesystem::temp_directory_path() / "paired.noise.json").string();
  write_json_atomically(noise_to_json(p), path);
  const NoiseProfile back = load_noise_profile(path);
  REQUIRE(back.find_paired("summary.tpot_ms.p50"));
  CHECK(back.find_paired("summary.tpot_ms.p50")->log_sd == Approx(p.paired[0].log_sd));
  CHECK(back.seconds_per_pair == 12.5);
  nlohmann::json bad = noise_to_json(p);
  bad["paired"]["seconds_per_pair"] = -1;
  write_json_atomically(bad, path);
  CHECK_THROWS_WITH(load_noise_profile(path), Catch::Contains("$.paired.seconds_per_pair"));
  std::filesystem::remove(path);
}
