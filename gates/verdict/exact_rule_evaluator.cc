#include "gates/verdict/exact_rule_evaluator.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/results/metric_key.h"
#include "common/stats/descriptive.h"
#include "gates/verdict/justification.h"

namespace infergate {

namespace {

bool carries(const PointResult& point, const MetricKey& key) {
  return std::any_of(point.repetitions.begin(), point.repetitions.end(),
                     [&](const RepetitionResult& r) { return metric_value(r.summary, key); });
}

// Beyond every threshold the rule gives.
bool beyond(const GateRule& rule, double change, double baseline) {
  return change > rule.absolute_threshold.value_or(0) &&
         change > rule.relative_threshold.value_or(0) * std::fabs(baseline);
}

std::string threshold_text(const GateRule& rule) {
  std::ostringstream s;
  if (rule.absolute_threshold) s << *rule.absolute_threshold;
  if (rule.absolute_threshold && rule.relative_threshold) s << " and ";
  if (rule.relative_threshold) s << *rule.relative_threshold * 100 << "% of the baseline";
  return s.str();
}

// A computed metric that moves between repetitions of one build is not what the rule assumes.
void warn_if_not_constant(RuleEvaluation& e, const std::vector<double>& values, const char* side) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (lo != values.end() && *hi - *lo > 1e-9 * std::max(std::fabs(*hi), 1e-300)) {
    std::ostringstream s;
    s << e.rule.metric.text << " differs between the " << side << "'s repetitions (" << *lo
      << " .. " << *hi << "); their mean was compared";
    e.warnings.push_back(s.str());
  }
}

}  // namespace

bool measured_on_either_side(const GateRule& rule, const PointResult& baseline,
                             const PointResult& candidate) {
  return carries(baseline, rule.metric) || carries(candidate, rule.metric);
}

RuleEvaluation evaluate_exact_rule(const GateRule& rule, const PointResult& baseline,
                                   const PointResult& candidate, const std::string& point,
                                   const EvaluationSettings& settings) {
  RuleEvaluation e;
  e.rule = rule;
  e.point = point;
  e.interval_lo = e.interval_hi = e.p_value = NAN;
  if (!read_values(e, baseline, candidate)) return e;
  e.baseline = mean(e.baseline_values);
  e.candidate = mean(e.candidate_values);
  e.relative_change = e.baseline != 0 ? e.candidate / e.baseline - 1 : NAN;
  e.effective_threshold = effective_threshold(rule, e.baseline);
  const int have = int(std::min(e.baseline_values.size(), e.candidate_values.size()));
  if (have < rule.min_repetitions) {
    e.reason = "needs " + std::to_string(rule.min_repetitions) + " repetitions per side, has " +
               std::to_string(have);
    return e;
  }
  warn_if_not_constant(e, e.baseline_values, "baseline");
  warn_if_not_constant(e, e.candidate_values, "candidate");
  const double worse = rule.better == Direction::kLowerIsBetter ? e.candidate - e.baseline
                                                                : e.baseline - e.candidate;
  std::ostringstream why;
  why.precision(6);
  why << e.baseline << " -> " << e.candidate << " (" << (worse >= 0 ? "worse" : "better") << " by "
      << std::fabs(worse) << ")";
  if (beyond(rule, worse, e.baseline)) {
    e.verdict = Verdict::kRegressed;
    why << ": beyond the threshold of " << threshold_text(rule);
  } else if (beyond(rule, -worse, e.baseline)) {
    e.verdict = Verdict::kImproved;
    why << ": better beyond the threshold of " << threshold_text(rule);
  } else {
    e.verdict = Verdict::kPass;
    why << ": within the threshold of " << threshold_text(rule);
  }
  e.reason = why.str();
  if (e.verdict == Verdict::kRegressed && rule.severity == Severity::kNeedsJustification) {
    const JustificationCheck j = check_justification(rule, settings.justification_root);
    e.justified = j.justified;
    e.reason += "; " + j.reason;
  }
  return e;
}

}  // namespace infergate
