#include "gates/calibrate/verdict_rates.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

#include "gates/verdict/comparison.h"
#include "gates/verdict/judged_rules.h"
#include "gates/verdict/rule_evaluator.h"

namespace infergate {

namespace {

PointResult subset(const PointResult& pool, const std::vector<size_t>& order, size_t begin,
                   size_t count) {
  PointResult p;
  p.sweep = pool.sweep;
  for (size_t i = begin; i < begin + count; ++i)
    p.repetitions.push_back(pool.repetitions[order[i]]);
  return p;
}

}  // namespace

void count_verdict(const RuleEvaluation& e, VerdictCounts& c) {
  ++c.trials;
  switch (e.verdict) {
    case Verdict::kPass:
      ++c.pass;
      break;
    case Verdict::kRegressed:
      ++c.regressed;
      break;
    case Verdict::kImproved:
      ++c.improved;
      break;
    case Verdict::kInconclusive:
      ++c.inconclusive;
      break;
  }
}

void count_gate(int exit_code, VerdictCounts& gate) {
  ++gate.trials;
  switch (exit_code) {
    case kExitRegression:
      ++gate.regressed;
      break;
    case kExitInconclusive:
      ++gate.inconclusive;
      break;
    default:
      ++gate.pass;
  }
}

std::vector<VerdictCounts> resampled_verdicts(const PointResult& a, const PointResult* b,
                                              const RuleSet& rules, const std::string& workload,
                                              const ResamplingPlan& plan) {
  const size_t k = size_t(plan.reps_per_side), most = k + size_t(plan.auto_repeat);
  const size_t need_a = b ? most : 2 * most;
  if (a.repetitions.size() < need_a || (b && b->repetitions.size() < most)) {
    throw std::invalid_argument("resampling " + std::to_string(most) +
                                " repetitions per side needs at least " + std::to_string(need_a) +
                                " runs" + (b ? " on each side" : "") + "; have " +
                                std::to_string(a.repetitions.size()));
  }
  const std::vector<const GateRule*> applicable = judged_rules(rules, workload, a, b ? *b : a);
  std::vector<VerdictCounts> counts;
  for (const GateRule* r : applicable) counts.push_back({r->name});
  VerdictCounts gate{kGateRow};
  std::mt19937_64 rng(plan.seed);
  std::vector<size_t> order_a(a.repetitions.size()), order_b(b ? b->repetitions.size() : 0);
  std::iota(order_a.begin(), order_a.end(), 0);
  std::iota(order_b.begin(), order_b.end(), 0);
  for (int t = 0; t < plan.trials; ++t) {
    std::shuffle(order_a.begin(), order_a.end(), rng);
    std::shuffle(order_b.begin(), order_b.end(), rng);
    const EvaluationSettings settings{rules.alpha, rules.confidence, rules.bootstrap_iterations,
                                      uint64_t(t) + 1, "/nonexistent"};  // no justifications
    // As compare --auto-repeat does: while the gate is inconclusive, two more per side.
    std::vector<RuleEvaluation> verdicts;
    for (size_t n = k;; n = std::min(n + 2, most)) {
      const PointResult base = subset(a, order_a, 0, n);
      const PointResult cand = b ? subset(*b, order_b, 0, n) : subset(a, order_a, most, n);
      verdicts.clear();
      bool blocks = false, inconclusive = false;
      for (const GateRule* r : applicable) {
        verdicts.push_back(evaluate_rule(*r, base, cand, "", settings));
        blocks = blocks || verdicts.back().blocks();
        inconclusive = inconclusive || verdicts.back().blocks_as_inconclusive();
      }
      if (blocks || !inconclusive || n == most) break;
    }
    for (size_t r = 0; r < verdicts.size(); ++r) count_verdict(verdicts[r], counts[r]);
    count_gate(gate_exit_code(verdicts), gate);
  }
  counts.push_back(gate);
  return counts;
}

nlohmann::json verdict_counts_to_json(const std::vector<VerdictCounts>& counts) {
  nlohmann::json out = nlohmann::json::array();
  for (const VerdictCounts& c : counts) {
    out.push_back({{"rule", c.rule},
                   {"trials", c.trials},
                   {"pass", c.pass},
                   {"regressed", c.regressed},
                   {"improved", c.improved},
                   {"inconclusive", c.inconclusive}});
  }
  return out;
}

}  // namespace infergate
