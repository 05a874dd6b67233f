#include "gates/verdict/paired_rule_evaluator.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "common/stats/descriptive.h"
#include "common/stats/paired_ratio.h"
#include "common/stats/wilcoxon_signed_rank.h"
#include "gates/verdict/exact_rule_evaluator.h"

namespace infergate {

namespace {

void mark_unestimated(RuleEvaluation& e) {
  e.relative_change = e.interval_lo = e.interval_hi = e.p_value = NAN;
}

std::optional<std::string> unpairable(const RuleEvaluation& e, int needed) {
  const size_t a = e.baseline_values.size(), b = e.candidate_values.size();
  if (a != b) {
    return "paired runs need as many baseline as candidate repetitions, have " + std::to_string(a) +
           " and " + std::to_string(b);
  }
  if (int(a) < needed) {
    return "needs " + std::to_string(needed) + " pairs, has " + std::to_string(a);
  }
  const auto not_positive = [](double v) { return !(v > 0); };
  if (std::any_of(e.baseline_values.begin(), e.baseline_values.end(), not_positive) ||
      std::any_of(e.candidate_values.begin(), e.candidate_values.end(), not_positive)) {
    return "a value is zero: the ratio of a pair is undefined";
  }
  return std::nullopt;
}

}  // namespace

int min_pairs(const GateRule& rule, double alpha) {
  return std::max(rule.min_repetitions, wilcoxon_min_pairs(alpha));
}

RuleEvaluation evaluate_paired_rule(const GateRule& rule, const PointResult& baseline,
                                    const PointResult& candidate, const std::string& point,
                                    const EvaluationSettings& settings) {
  if (rule.exact) return evaluate_exact_rule(rule, baseline, candidate, point, settings);
  RuleEvaluation e;
  e.rule = rule;
  e.point = point;
  if (!read_values(e, baseline, candidate)) return e;
  e.baseline = mean(e.baseline_values);
  e.candidate = mean(e.candidate_values);
  e.effective_threshold = effective_threshold(rule, e.baseline);
  mark_unestimated(e);
  if (const std::optional<std::string> problem = unpairable(e, min_pairs(rule, settings.alpha))) {
    e.reason = *problem;
    return e;
  }
  const PairedRatio ratio =
      paired_ratio(e.baseline_values, e.candidate_values, settings.confidence);
  e.relative_change = ratio.estimate;
  e.interval_lo = ratio.interval.lo;
  e.interval_hi = ratio.interval.hi;
  std::vector<double> logs;
  for (size_t i = 0; i < e.baseline_values.size(); ++i) {
    logs.push_back(std::log(e.candidate_values[i] / e.baseline_values[i]));
  }
  const WilcoxonResult w = wilcoxon_signed_rank(logs);
  conclude(e, w.p_greater, w.p_less, settings, "pairs");
  return e;
}

}  // namespace infergate
