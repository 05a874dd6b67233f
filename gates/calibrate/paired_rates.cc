#include "gates/calibrate/paired_rates.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

#include "gates/verdict/comparison.h"
#include "gates/verdict/judged_rules.h"
#include "gates/verdict/paired_rule_evaluator.h"

namespace infergate {

namespace {

// The first `count` pairs in `order`, summaries only (the paired evaluator reads no requests).
void take_pairs(const PointResult& pool, const std::vector<size_t>& order, size_t count,
                PointResult& out) {
  out.repetitions.clear();
  for (size_t i = 0; i < count; ++i) {
    const RepetitionResult& r = pool.repetitions[order[i]];
    RepetitionResult copy;
    copy.index = int(i);
    copy.summary = r.summary;
    out.repetitions.push_back(std::move(copy));
  }
}

}  // namespace

SequentialRates sequential_paired_verdicts(const PointResult& baseline,
                                           const PointResult& candidate, const RuleSet& rules,
                                           const std::string& workload,
                                           const SequentialPlan& plan) {
  const size_t n = baseline.repetitions.size();
  if (n != candidate.repetitions.size() || n < 2) {
    throw std::invalid_argument("paired trials need the same number (>= 2) of runs on each side");
  }
  const std::vector<const GateRule*> applicable =
      judged_rules(rules, workload, baseline, candidate);
  AbDesign design = plan.design;
  design.max_pairs = std::min(design.max_pairs, int(n));
  const int look = first_look(design, rules, workload);
  SequentialRates rates;
  for (const GateRule* r : applicable) rates.counts.push_back({r->name});
  VerdictCounts gate{kGateRow};
  std::mt19937_64 rng(plan.seed);
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  PointResult base, cand;
  double pairs_used = 0;
  for (int t = 0; t < plan.trials; ++t) {
    std::shuffle(order.begin(), order.end(), rng);
    const EvaluationSettings settings{rules.alpha, rules.confidence, rules.bootstrap_iterations,
                                      uint64_t(t) + 1, "/nonexistent"};  // no justifications
    std::vector<RuleEvaluation> verdicts;
    int pairs = std::min(look, design.max_pairs);
    RegressionStreak streak;
    for (;;) {
      take_pairs(baseline, order, size_t(pairs), base);
      take_pairs(candidate, order, size_t(pairs), cand);
      verdicts.clear();
      for (const GateRule* r : applicable) {
        verdicts.push_back(evaluate_paired_rule(*r, base, cand, "", settings));
      }
      const int exit_code = gate_exit_code(verdicts);
      const AbStop stop = next_step(design, pairs, exit_code, streak.after(exit_code),
                                    pairs * plan.seconds_per_pair, plan.seconds_per_pair);
      if (stop != AbStop::kContinue) break;
      pairs += 2;
    }
    pairs_used += pairs;
    for (size_t r = 0; r < verdicts.size(); ++r) count_verdict(verdicts[r], rates.counts[r]);
    count_gate(gate_exit_code(verdicts), gate);
  }
  rates.counts.push_back(gate);
  rates.mean_pairs = plan.trials > 0 ? pairs_used / plan.trials : 0;
  return rates;
}

}  // namespace infergate
