#include "gates/calibrate/verdict_rates.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

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

void count(const RuleEvaluation& e, VerdictCounts& c) {
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

}  // namespace

std::vector<VerdictCounts> resampled_verdicts(const PointResult& a, const PointResult* b,
                                              const RuleSet& rules, const std::string& workload,
                                              int reps_per_side, int trials, uint64_t seed) {
  const size_t k = size_t(reps_per_side);
  const size_t need_a = b ? k : 2 * k;
  if (a.repetitions.size() < need_a || (b && b->repetitions.size() < k)) {
    throw std::invalid_argument("resampling " + std::to_string(reps_per_side) +
                                " repetitions per side needs at least " + std::to_string(need_a) +
                                " runs" + (b ? " on each side" : "") + "; have " +
                                std::to_string(a.repetitions.size()));
  }
  std::vector<VerdictCounts> counts;
  std::vector<const GateRule*> applicable;
  for (const GateRule& r : rules.rules) {
    if (!r.applies_to(workload)) continue;
    applicable.push_back(&r);
    counts.push_back({r.name});
  }
  std::mt19937_64 rng(seed);
  std::vector<size_t> order_a(a.repetitions.size()), order_b(b ? b->repetitions.size() : 0);
  std::iota(order_a.begin(), order_a.end(), 0);
  std::iota(order_b.begin(), order_b.end(), 0);
  for (int t = 0; t < trials; ++t) {
    std::shuffle(order_a.begin(), order_a.end(), rng);
    std::shuffle(order_b.begin(), order_b.end(), rng);
    const PointResult base = subset(a, order_a, 0, k);
    const PointResult cand = b ? subset(*b, order_b, 0, k) : subset(a, order_a, k, k);
    EvaluationSettings settings{rules.alpha, rules.confidence, rules.bootstrap_iterations,
                                uint64_t(t) + 1, "/nonexistent"};  // no justification counts
    for (size_t r = 0; r < applicable.size(); ++r) {
      count(evaluate_rule(*applicable[r], base, cand, "", settings), counts[r]);
    }
  }
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
