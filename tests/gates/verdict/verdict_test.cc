#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "gates/rules/default_rules.h"
#include "gates/rules/rule_set.h"
#include "gates/verdict/comparison.h"
#include "gates/verdict/rule_evaluator.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;

namespace {

GateRule tpot_rule(int min_repetitions = 5) {
  GateRule r;
  r.name = "tpot-p95";
  r.metric = parse_metric_key("summary.tpot_ms.p95");
  r.better = Direction::kLowerIsBetter;
  r.relative_threshold = 0.05;
  r.min_repetitions = min_repetitions;
  return r;
}

RuleEvaluation judge(const GateRule& rule, double change, double cv = 0.005, int n = 8) {
  const ResultsFile base = results_of(noisy("tpot_ms.p95", 20, cv, n, 1));
  const ResultsFile cand = results_of(noisy("tpot_ms.p95", 20 * (1 + change), cv, n, 2));
  return evaluate_rule(rule, base.points[0], cand.points[0], "", EvaluationSettings{});
}

}  // namespace

TEST_CASE("a 20% slower candidate regresses under a 5% rule") {
  const RuleEvaluation e = judge(tpot_rule(), 0.20);
  CHECK(e.verdict == Verdict::kRegressed);
  CHECK(e.relative_change == Approx(0.20).margin(0.01));
  CHECK(e.interval_lo > 0.05);
  CHECK(e.p_value < 0.001);
  CHECK(e.blocks());
}

TEST_CASE("an unchanged candidate passes") {
  const RuleEvaluation e = judge(tpot_rule(), 0.0);
  CHECK(e.verdict == Verdict::kPass);
  CHECK(e.interval_hi < 0.05);
  CHECK_FALSE(e.blocks());
}

TEST_CASE("a 3% slower candidate passes a 5% rule when the interval is tight") {
  const RuleEvaluation e = judge(tpot_rule(), 0.03);
  CHECK(e.verdict == Verdict::kPass);
  CHECK(e.relative_change == Approx(0.03).margin(0.005));
}

TEST_CASE("a 20% faster candidate is an improvement, which does not block") {
  const RuleEvaluation e = judge(tpot_rule(), -0.20);
  CHECK(e.verdict == Verdict::kImproved);
  CHECK_FALSE(e.blocks());
}

TEST_CASE("higher-is-better metrics regress when they drop") {
  GateRule r = tpot_rule();
  r.metric = parse_metric_key("summary.request_throughput_rps");
  r.better = Direction::kHigherIsBetter;
  const ResultsFile base = results_of(noisy("request_throughput_rps", 8, 0.005, 6, 1));
  const ResultsFile cand = results_of(noisy("request_throughput_rps", 7, 0.005, 6, 2));
  const RuleEvaluation e = evaluate_rule(r, base.points[0], cand.points[0], "", {});
  CHECK(e.verdict == Verdict::kRegressed);
  CHECK(e.relative_change < -0.1);
}

TEST_CASE("too few repetitions is inconclusive, never a pass") {
  const RuleEvaluation e = judge(tpot_rule(5), 0.0, 0.005, 3);
  CHECK(e.verdict == Verdict::kInconclusive);
  CHECK_THAT(e.reason, Catch::Contains("needs 5 repetitions per side, has 3"));
  CHECK(e.blocks_as_inconclusive());
  CHECK(std::isnan(e.p_value));
}

TEST_CASE("a change near the threshold under heavy noise is inconclusive") {
  const RuleEvaluation e = judge(tpot_rule(), 0.03, 0.10, 5);
  CHECK(e.verdict == Verdict::kInconclusive);
  CHECK(e.interval_hi > 0.05);
  CHECK(e.interval_lo < 0.05);
}

TEST_CASE("a metric missing from a repetition is inconclusive and names the key") {
  const ResultsFile base = results_of(noisy("tpot_ms.p95", 20, 0.01, 5, 1));
  const ResultsFile cand = results_of(noisy("ttft_ms.p95", 20, 0.01, 5, 2));
  const RuleEvaluation e = evaluate_rule(tpot_rule(), base.points[0], cand.points[0], "", {});
  CHECK(e.verdict == Verdict::kInconclusive);
  CHECK_THAT(e.reason, Catch::Contains("summary.tpot_ms.p95 is absent from candidate"));
}

TEST_CASE("an absolute threshold raises the bar for small baselines") {
  GateRule r = tpot_rule();
  r.absolute_threshold = 5.0;  // ms: a 20% change of 20 ms is 4 ms, under the bar
  const ResultsFile base = results_of(noisy("tpot_ms.p95", 20, 0.005, 6, 1));
  const ResultsFile cand = results_of(noisy("tpot_ms.p95", 24, 0.005, 6, 2));
  const RuleEvaluation e = evaluate_rule(r, base.points[0], cand.points[0], "", {});
  CHECK(e.effective_threshold == Approx(0.25).epsilon(0.01));
  CHECK(e.verdict == Verdict::kPass);
}

TEST_CASE("a needs-justification regression blocks until its file exists") {
  GateRule r = tpot_rule();
  r.severity = Severity::kNeedsJustification;
  r.justification_file = "perf-justifications/tpot.md";
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / "infergate-justification-test";
  std::filesystem::remove_all(root);
  EvaluationSettings settings;
  settings.justification_root = root.string();
  const ResultsFile base = results_of(noisy("tpot_ms.p95", 20, 0.005, 6, 1));
  const ResultsFile cand = results_of(noisy("tpot_ms.p95", 25, 0.005, 6, 2));
  RuleEvaluation e = evaluate_rule(r, base.points[0], cand.points[0], "", settings);
  CHECK(e.verdict == Verdict::kRegressed);
  CHECK(e.blocks());
  CHECK_THAT(e.reason, Catch::Contains("add perf-justifications/tpot.md"));
  std::filesystem::create_directories(root / "perf-justifications");
  std::ofstream(root / "perf-justifications/tpot.md")
      << "justifies: tpot-p95\n\nbigger cache, on purpose\n";
  e = evaluate_rule(r, base.points[0], cand.points[0], "", settings);
  CHECK(e.justified);
  CHECK_FALSE(e.blocks());
  std::filesystem::remove_all(root);
}

TEST_CASE("the same inputs give the same verdict, interval and p-value") {
  const RuleEvaluation a = judge(tpot_rule(), 0.04, 0.03, 6);
  const RuleEvaluation b = judge(tpot_rule(), 0.04, 0.03, 6);
  CHECK(a.verdict == b.verdict);
  CHECK(a.interval_lo == b.interval_lo);
  CHECK(a.interval_hi == b.interval_hi);
  CHECK(a.p_value == b.p_value);
}

TEST_CASE("exit codes: regression outranks inconclusive, which outranks pass") {
  const ResultsFile base = results_of(noisy("tpot_ms.p95", 20, 0.005, 6, 1));
  const ResultsFile slow = results_of(noisy("tpot_ms.p95", 26, 0.005, 6, 2));
  const ResultsFile same = results_of(noisy("tpot_ms.p95", 20, 0.005, 6, 3));
  RuleSet rules;
  rules.rules = {tpot_rule()};
  CHECK(compare_results(base, slow, rules, {}).exit_code() == kExitRegression);
  CHECK(compare_results(base, same, rules, {}).exit_code() == kExitPass);
  rules.rules[0].min_repetitions = 10;
  CHECK(compare_results(base, same, rules, {}).exit_code() == kExitInconclusive);
  rules.rules.push_back(tpot_rule());
  rules.rules[1].name = "strict";
  CHECK(compare_results(base, slow, rules, {}).exit_code() == kExitRegression);
  CHECK_THAT(compare_results(base, slow, rules, {}).headline(), Catch::StartsWith("REGRESSED"));
}

TEST_CASE("a warn-severity regression is reported but passes the gate") {
  const ResultsFile base = results_of(noisy("tpot_ms.p95", 20, 0.005, 6, 1));
  const ResultsFile slow = results_of(noisy("tpot_ms.p95", 26, 0.005, 6, 2));
  RuleSet rules;
  rules.rules = {tpot_rule()};
  rules.rules[0].severity = Severity::kWarn;
  const Comparison c = compare_results(base, slow, rules, {});
  CHECK(c.evaluations.at(0).verdict == Verdict::kRegressed);
  CHECK(c.exit_code() == kExitPass);
}

TEST_CASE("results of different workloads are refused field by field") {
  nlohmann::json doc = results_doc(noisy("tpot_ms.p95", 20, 0.01, 5, 1));
  const ResultsFile base = parse_results(doc, "base.json");
  doc["workload"]["load"]["rate"] = 4.0;
  rehash(doc);
  const ResultsFile cand = parse_results(doc, "cand.json");
  RuleSet rules;
  rules.rules = {tpot_rule()};
  const Comparison c = compare_results(base, cand, rules, {});
  CHECK_FALSE(c.comparable);
  CHECK(c.exit_code() == kExitIncomparable);
  REQUIRE(c.differences.size() == 1);
  CHECK(c.differences[0].field == "workload.load.rate");
  CHECK(c.differences[0].baseline == "8.0");
  CHECK(c.differences[0].candidate == "4.0");
  CHECK(c.evaluations.empty());
}

TEST_CASE("a different machine or build is refused unless allowed") {
  nlohmann::json doc = results_doc(noisy("tpot_ms.p95", 20, 0.005, 6, 1));
  const ResultsFile base = parse_results(doc, "base.json");
  doc["manifest"]["host"]["cpu_model"] = "Other CPU";
  doc["manifest"]["build"]["type"] = "Debug";
  doc["manifest"]["host"]["hostname"] = "elsewhere";  // expected to differ: not compared
  doc["manifest"]["git"]["commit"] = "ffffffffffffffffffffffffffffffffffffffff";
  const ResultsFile cand = parse_results(doc, "cand.json");
  RuleSet rules;
  rules.rules = {tpot_rule()};
  Comparison c = compare_results(base, cand, rules, {});
  CHECK(c.exit_code() == kExitIncomparable);
  REQUIRE(c.differences.size() == 2);
  CHECK(c.differences[0].field == "manifest.host.cpu_model");
  CHECK(c.differences[1].field == "manifest.build.type");
  CompareOptions allow;
  allow.allow_env_diff = true;
  c = compare_results(base, cand, rules, allow);
  CHECK(c.comparable);
  CHECK(c.exit_code() == kExitPass);
  CHECK_THAT(c.warnings.at(0), Catch::Contains("2 fingerprint field(s) differ"));
}

TEST_CASE("rules apply only to the workloads their globs match") {
  const ResultsFile base = results_of(noisy("tpot_ms.p95", 20, 0.005, 6, 1), "chat-short");
  const ResultsFile cand = results_of(noisy("tpot_ms.p95", 20, 0.005, 6, 2), "chat-short");
  RuleSet rules;
  rules.rules = {tpot_rule()};
  rules.rules[0].workloads = {"long-*"};
  const Comparison c = compare_results(base, cand, rules, {});
  CHECK(c.evaluations.empty());
  CHECK(c.exit_code() == kExitInconclusive);
  CHECK_THAT(c.headline(), Catch::Contains("no rule applies to workload 'chat-short'"));
}

TEST_CASE("except_workloads leaves matching workloads out of a rule") {
  RuleSet rules = parse_rule_set(nlohmann::json::parse(R"({"schema": "infergate.gates/v1",
      "rules": [{"name": "r", "metric": "summary.tpot_ms.p50", "better": "lower",
                 "threshold": {"relative": 0.05}, "except_workloads": ["gate-*"]}]})"),
                                 "rules.json");
  CHECK(rules.rules[0].applies_to("quickstart"));
  CHECK_FALSE(rules.rules[0].applies_to("gate-decode"));
  CHECK_THROWS_WITH(parse_rule_set(nlohmann::json::parse(R"({"schema": "infergate.gates/v1",
      "rules": [{"name": "r", "metric": "summary.tpot_ms.p50", "better": "lower",
                 "threshold": {"relative": 0.05}, "except_workloads": []}]})"),
                                   "rules.json"),
                    Catch::Contains("$.rules[0].except_workloads"));
  // The default rules: the gate workloads get their own set, every other workload the general;
  // the quality rules apply wherever a quality section put their metrics, the capacity rule
  // wherever a search did (judged_rules keeps it to searches).
  const RuleSet defaults = default_rule_set();
  for (const GateRule& r : defaults.rules) {
    INFO(r.name);
    if (r.exact || r.metric.metric == "capacity_at_slo") {
      CHECK((r.applies_to("gate-decode") && r.applies_to("quickstart")));
      continue;
    }
    CHECK(r.applies_to("gate-decode") == (r.name.rfind("gate-", 0) == 0));
    CHECK(r.applies_to("quickstart") == (r.name.rfind("gate-", 0) != 0));
  }
}

TEST_CASE("the built-in default rules are the shipped gates/default.json") {
  const RuleSet builtin = default_rule_set();
  const RuleSet file = load_rule_set(std::string(INFERGATE_SOURCE_DIR) + "/gates/default.json");
  REQUIRE(builtin.rules.size() == file.rules.size());
  CHECK(builtin.alpha == file.alpha);
  for (size_t i = 0; i < file.rules.size(); ++i) CHECK(builtin.rules[i].name == file.rules[i].name);
}
