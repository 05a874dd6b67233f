// The paired evaluator and ab's sequential design on runs built in memory: a machine whose speed
// drifts by tens of percent between pairs, and a candidate whose change is known.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "gates/ab/ab_design.h"
#include "gates/calibrate/paired_rates.h"
#include "gates/verdict/comparison.h"
#include "gates/verdict/paired_rule_evaluator.h"
#include "gates/verdict/rule_evaluator.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;

namespace {

GateRule tpot_rule() {
  GateRule r;
  r.name = "tpot-p50";
  r.metric = parse_metric_key("summary.tpot_ms.p50");
  r.better = Direction::kLowerIsBetter;
  r.relative_threshold = 0.05;
  r.min_repetitions = 6;
  return r;
}

RuleSet rules_of(const GateRule& rule, double alpha = 0.01) {
  RuleSet s;
  s.source = "test rules";
  s.alpha = alpha;
  s.rules = {rule};
  return s;
}

// Pairs on a machine whose speed wanders 0.7x .. 1.3x from pair to pair; within a pair both
// runs see the same speed and a 2% noise of their own. The candidate is `change` slower.
struct PairedRuns {
  ResultsFile baseline, candidate;
};

PairedRuns drifting_pairs(int n, double change, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> speed(0.7, 1.3);
  std::normal_distribution<double> own(1.0, 0.02);
  std::vector<RepetitionMetrics> base, cand;
  for (int i = 0; i < n; ++i) {
    const double s = speed(rng);
    base.push_back({{"tpot_ms.p50", 20 * s * own(rng)}});
    cand.push_back({{"tpot_ms.p50", 20 * (1 + change) * s * own(rng)}});
  }
  return {results_of(base), results_of(cand)};
}

}  // namespace

TEST_CASE("paired: a 10% slowdown under drift regresses where the unpaired test cannot tell") {
  const PairedRuns runs = drifting_pairs(8, 0.10, 3);
  const EvaluationSettings settings{0.01, 0.95, 2000, 1, "."};
  const RuleEvaluation paired = evaluate_paired_rule(tpot_rule(), runs.baseline.points[0],
                                                     runs.candidate.points[0], "", settings);
  CHECK(paired.verdict == Verdict::kRegressed);
  CHECK(paired.relative_change == Approx(0.10).margin(0.02));
  CHECK(paired.p_value == Approx(1.0 / 256));  // every pair worse: the exact minimum at 8
  const RuleEvaluation unpaired =
      evaluate_rule(tpot_rule(), runs.baseline.points[0], runs.candidate.points[0], "", settings);
  CHECK(unpaired.verdict == Verdict::kInconclusive);
}

TEST_CASE("paired: the same build on a drifting machine passes") {
  const PairedRuns runs = drifting_pairs(8, 0.0, 5);
  const EvaluationSettings settings{0.01, 0.95, 2000, 1, "."};
  const RuleEvaluation e = evaluate_paired_rule(tpot_rule(), runs.baseline.points[0],
                                                runs.candidate.points[0], "", settings);
  CHECK(e.verdict == Verdict::kPass);
  CHECK(e.interval_hi < 0.05);
}

TEST_CASE("paired: too few pairs, unequal sides and zero values are inconclusive, with why") {
  const EvaluationSettings settings{0.01, 0.95, 2000, 1, "."};
  const PairedRuns six = drifting_pairs(6, 0.5, 1);
  const RuleEvaluation few = evaluate_paired_rule(tpot_rule(), six.baseline.points[0],
                                                  six.candidate.points[0], "", settings);
  CHECK(few.verdict == Verdict::kInconclusive);
  CHECK(few.reason == "needs 7 pairs, has 6");  // 2^-6 cannot reach alpha 0.01
  const PairedRuns eight = drifting_pairs(8, 0.5, 1);
  const RuleEvaluation unequal = evaluate_paired_rule(tpot_rule(), eight.baseline.points[0],
                                                      six.candidate.points[0], "", settings);
  CHECK(unequal.reason.find("as many baseline as candidate") != std::string::npos);
  std::vector<RepetitionMetrics> zeros(8, {{"tpot_ms.p50", 0.0}});
  const ResultsFile z = results_of(zeros);
  const RuleEvaluation zero =
      evaluate_paired_rule(tpot_rule(), z.points[0], eight.candidate.points[0], "", settings);
  CHECK(zero.verdict == Verdict::kInconclusive);
  CHECK(zero.reason.find("ratio of a pair is undefined") != std::string::npos);
}

TEST_CASE("paired: compare --paired judges every rule as pairs and says so") {
  const PairedRuns runs = drifting_pairs(8, 0.10, 3);
  CompareOptions options;
  options.paired = true;
  const Comparison c =
      compare_results(runs.baseline, runs.candidate, rules_of(tpot_rule()), options);
  CHECK(c.paired);
  CHECK(c.exit_code() == kExitRegression);
  CHECK(c.method().find("Wilcoxon signed-rank") != std::string::npos);
  // The reports' footnote names the test used, not the unpaired one.
  CHECK(c.statistics_note().find("Wilcoxon signed-rank") != std::string::npos);
  CHECK(c.statistics_note().find("Mann-Whitney") == std::string::npos);
  options.paired = false;
  const Comparison unpaired =
      compare_results(runs.baseline, runs.candidate, rules_of(tpot_rule()), options);
  CHECK(unpaired.statistics_note().find("Mann-Whitney U") != std::string::npos);
}

TEST_CASE("paired rates judge the rules ab judges: a quality rule on runs without quality is not") {
  GateRule quality;
  quality.name = "quality-kl-mean";
  quality.metric = parse_metric_key("summary.kl_divergence_mean");
  quality.better = Direction::kLowerIsBetter;
  quality.exact = true;
  quality.absolute_threshold = 0.002;
  RuleSet rules = rules_of(tpot_rule());
  rules.rules.push_back(quality);
  const PairedRuns same = drifting_pairs(24, 0.0, 5);
  CompareOptions options;
  options.paired = true;
  const Comparison ab = compare_results(same.baseline, same.candidate, rules, options);
  REQUIRE(ab.evaluations.size() == 1);  // tpot-p50 only
  SequentialPlan plan;
  plan.design.max_pairs = 24;
  plan.seconds_per_pair = 1;
  plan.trials = 50;
  const SequentialRates replay = sequential_paired_verdicts(
      same.baseline.points[0], same.candidate.points[0], rules, "synthetic", plan);
  REQUIRE(replay.counts.size() == 2);  // tpot-p50 and the gate row: the same rules as ab
  CHECK(replay.counts[0].rule == "tpot-p50");
  CHECK(replay.counts.back().inconclusive < 50);  // not "inconclusive" for want of quality
  // With every pair in one look, as ab's last look, the replay's verdict is ab's.
  plan.design.min_pairs = 24;
  plan.trials = 1;
  const SequentialRates whole = sequential_paired_verdicts(
      same.baseline.points[0], same.candidate.points[0], rules, "synthetic", plan);
  const VerdictCounts& gate = whole.counts.back();
  CHECK((ab.exit_code() == kExitPass) == (gate.pass == 1));
  CHECK((ab.exit_code() == kExitInconclusive) == (gate.inconclusive == 1));
}

TEST_CASE("ab design: ABBA order, the first look at whole blocks, and the stopping rule") {
  CHECK_FALSE(candidate_runs_first(0));
  CHECK(candidate_runs_first(1));
  CHECK(candidate_runs_first(3));
  AbDesign d;
  CHECK(first_look(d, rules_of(tpot_rule()), "synthetic") == 8);  // 7 pairs at 0.01, made even
  CHECK(first_look(d, rules_of(tpot_rule(), 0.05), "synthetic") == 6);
  d.min_pairs = 11;
  CHECK(first_look(d, rules_of(tpot_rule()), "synthetic") == 12);
  CHECK(is_look(12, 12));
  CHECK_FALSE(is_look(13, 12));
  CHECK_FALSE(is_look(10, 12));
  d.max_pairs = 20;
  d.budget_seconds = 100;
  CHECK(next_step(d, 12, kExitPass, 0, 50, 4) == AbStop::kDecided);
  CHECK(next_step(d, 12, kExitRegression, 2, 50, 4) == AbStop::kDecided);
  CHECK(next_step(d, 12, kExitRegression, 1, 50, 4) == AbStop::kContinue);  // not yet confirmed
  CHECK(next_step(d, 12, kExitRegression, 1, 95, 4) == AbStop::kBudget);
  CHECK(next_step(d, 12, kExitInconclusive, 0, 50, 4) == AbStop::kContinue);
  CHECK(next_step(d, 12, kExitInconclusive, 0, 95, 4) == AbStop::kBudget);
  CHECK(next_step(d, 20, kExitInconclusive, 0, 50, 4) == AbStop::kMaxPairs);
  RegressionStreak streak;
  CHECK(streak.after(kExitRegression) == 1);
  CHECK(streak.after(kExitRegression) == 2);
  CHECK(streak.after(kExitInconclusive) == 0);
}

TEST_CASE("paired rates: ab's procedure catches a 10% slowdown under drift and passes A/A") {
  const PairedRuns slowed = drifting_pairs(30, 0.10, 11);
  const PairedRuns same = drifting_pairs(30, 0.0, 12);
  SequentialPlan plan;
  plan.design.max_pairs = 30;
  plan.seconds_per_pair = 10;
  plan.trials = 100;
  const RuleSet rules = rules_of(tpot_rule());
  const SequentialRates caught = sequential_paired_verdicts(
      slowed.baseline.points[0], slowed.candidate.points[0], rules, "synthetic", plan);
  const SequentialRates aa = sequential_paired_verdicts(
      same.baseline.points[0], same.candidate.points[0], rules, "synthetic", plan);
  REQUIRE(caught.counts.back().rule == kGateRow);
  CHECK(caught.counts.back().regressed == 100);
  CHECK(caught.mean_pairs == 10);  // regressed at the first look, confirmed at the second
  CHECK(aa.counts.back().regressed == 0);
  CHECK(aa.counts.back().pass >= 97);
  // A budget of 50 s allows the first look (8 pairs = 80 s already past it) and no more.
  plan.design.budget_seconds = 50;
  const SequentialRates tight = sequential_paired_verdicts(
      same.baseline.points[0], same.candidate.points[0], rules, "synthetic", plan);
  CHECK(tight.mean_pairs == 8);
}
