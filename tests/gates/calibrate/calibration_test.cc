#include "gates/calibrate/calibration.h"

#include <catch2/catch.hpp>
#include <cstdio>

#include "gates/verdict/comparison.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;

namespace {

RuleSet rules_with_minimums(int tpot_min, int ttft_min) {
  nlohmann::json doc = nlohmann::json::parse(R"({"schema": "infergate.gates/v1", "rules": [
      {"name": "tpot-p95", "metric": "summary.tpot_ms.p95", "better": "lower",
       "threshold": {"relative": 0.05}},
      {"name": "ttft-p95", "metric": "summary.ttft_ms.p95", "better": "lower",
       "threshold": {"relative": 0.05}, "workloads": ["other"]}]})");
  doc["rules"][0]["min_repetitions"] = tpot_min;
  doc["rules"][1]["min_repetitions"] = ttft_min;
  return parse_rule_set(doc, "rules.json");
}

}  // namespace

TEST_CASE("calibration compares as many repetitions a side as the strictest rule needs") {
  const RuleSet rules = rules_with_minimums(5, 7);
  CHECK(calibration_design(rules, 0, 2, 50).reps_per_side == 7);
  const CalibrationDesign given = calibration_design(rules, 4, 2, 50);
  CHECK(given.reps_per_side == 4);
  CHECK(given.auto_repeat == 2);
  CHECK(given.trials == 50);
}

TEST_CASE("A/A calibration measures the metrics of the rules that apply and records its rates") {
  const RuleSet rules = rules_with_minimums(5, 5);
  const ResultsFile runs = results_of(noisy("tpot_ms.p95", 20, 0.01, 20, 1));
  const AaCalibration aa = calibrate_aa(runs, rules, {5, 0, 40});
  REQUIRE(aa.noise.metrics.size() == 1);  // the ttft rule is for another workload
  CHECK(aa.noise.metrics[0].key == "summary.tpot_ms.p95");
  CHECK(aa.counts.back().rule == kGateRow);
  CHECK(aa.counts.back().regressed == 0);
  REQUIRE(aa.noise.verdict_rates.size() == 1);
  CHECK(aa.noise.verdict_rates[0]["kind"] == "A/A");
  CHECK(aa.noise.verdict_rates[0]["reps_per_side"] == 5);
}

TEST_CASE("a slowdown check appends its detection rates after the A/A entry") {
  const RuleSet rules = rules_with_minimums(5, 5);
  const ResultsFile a = results_of(noisy("tpot_ms.p95", 20, 0.01, 20, 1));
  const ResultsFile b = results_of(noisy("tpot_ms.p95", 23, 0.01, 20, 2));
  AaCalibration aa = calibrate_aa(a, rules, {5, 0, 40});
  const std::vector<VerdictCounts> ab =
      detect_slowdown(a, b, rules, {5, 0, 40}, 0.15, 300, aa.noise);
  CHECK(ab.back().regressed == 40);
  REQUIRE(aa.noise.verdict_rates.size() == 2);
  CHECK(aa.noise.verdict_rates[1]["kind"] == "injected slowdown");
  CHECK(aa.noise.verdict_rates[1]["delay_us"] == 300);
  CHECK(aa.noise.verdict_rates[1]["fraction"] == 0.15);
  // What the slowed runs did, not what was injected: 23 against 20 is +15%, within the noise.
  const nlohmann::json& change = aa.noise.verdict_rates[1]["measured_change"];
  REQUIRE(change.size() == 1);  // the ttft rule is for another workload
  CHECK(change["summary.tpot_ms.p95"].get<double>() == Approx(0.15).margin(0.01));
  char expected[64];
  std::snprintf(expected, sizeof(expected), "tpot_ms.p95 %+.1f%%",
                100 * change["summary.tpot_ms.p95"].get<double>());
  CHECK(format_measured_change(change) == expected);
  CHECK(format_measured_change(nlohmann::json::object()) == "nothing");
}

TEST_CASE("the slowdown delay needs engine step times and is read back from the slowed runs") {
  const ResultsFile runs = results_of(noisy("tpot_ms.p95", 20, 0.01, 4, 1));
  CHECK_THROWS_WITH(slowdown_delay_us(runs, 0.1), Catch::Contains("needs an engine target"));
  CHECK(injected_delay_us(runs) == 0);
  nlohmann::json doc = results_doc(noisy("tpot_ms.p95", 20, 0.01, 4, 1), "synthetic");
  doc["workload"]["target"] = {{"type", "engine"},
                               {"engine", {{"debug", {{"inject_decode_delay_us", 250}}}}}};
  rehash(doc);
  CHECK(injected_delay_us(parse_results(doc, "slowed.json")) == 250);
}

// The gate row must say what compare says: the same runs, the same rules, one trial using every
// run, in a case that regresses, one that passes and one too noisy to tell.
TEST_CASE("calibrate's gate row gives compare's verdict on the same runs") {
  const RuleSet rules = rules_with_minimums(5, 5);
  struct Case {
    const char* name;
    double candidate_center, cv;
    int expected_exit;
  };
  const Case cases[] = {{"20% slower, quiet", 24, 0.01, kExitRegression},
                        {"unchanged, quiet", 20, 0.002, kExitPass},
                        {"unchanged, 20% noise", 20, 0.20, kExitInconclusive}};
  for (const Case& c : cases) {
    INFO(c.name);
    const ResultsFile a = results_of(noisy("tpot_ms.p95", 20, c.cv, 6, 11));
    const ResultsFile b = results_of(noisy("tpot_ms.p95", c.candidate_center, c.cv, 6, 12));
    const int compared = compare_results(a, b, rules, {}).exit_code();
    REQUIRE(compared == c.expected_exit);
    const VerdictCounts gate =
        resampled_verdicts(a.points[0], &b.points[0], rules, a.workload_name, {6, 0, 1, 1}).back();
    REQUIRE(gate.rule == kGateRow);
    CHECK(gate.trials == 1);
    CHECK(gate.regressed == (compared == kExitRegression));
    CHECK(gate.inconclusive == (compared == kExitInconclusive));
    CHECK(gate.pass == (compared == kExitPass));
  }
}
