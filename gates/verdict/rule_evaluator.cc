#include "gates/verdict/rule_evaluator.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "common/results/request_samples.h"
#include "common/stats/bootstrap.h"
#include "common/stats/descriptive.h"
#include "common/stats/mann_whitney.h"
#include "gates/verdict/exact_rule_evaluator.h"
#include "gates/verdict/justification.h"
#include "gates/verdict/verdict_decision.h"

namespace infergate {

namespace {

// The metric's value in every repetition, or the reason it cannot be had.
std::optional<std::string> repetition_values(const PointResult& point, const MetricKey& key,
                                             const char* side, std::vector<double>& out) {
  for (const RepetitionResult& rep : point.repetitions) {
    const std::optional<double> v = metric_value(rep.summary, key);
    if (!v || !std::isfinite(*v)) {
      return key.text + " is absent from " + side + " repetition " + std::to_string(rep.index);
    }
    out.push_back(*v);
  }
  return std::nullopt;
}

}  // namespace

bool read_values(RuleEvaluation& e, const PointResult& baseline, const PointResult& candidate) {
  std::optional<std::string> missing =
      repetition_values(baseline, e.rule.metric, "baseline", e.baseline_values);
  if (!missing) {
    missing = repetition_values(candidate, e.rule.metric, "candidate", e.candidate_values);
  }
  if (!missing) return true;
  e.baseline = e.candidate = e.relative_change = NAN;
  e.interval_lo = e.interval_hi = NAN;
  e.reason = *missing;
  return false;
}

double effective_threshold(const GateRule& rule, double baseline) {
  return std::max(rule.relative_threshold.value_or(0),
                  baseline != 0 ? rule.absolute_threshold.value_or(0) / std::fabs(baseline) : 0.0);
}

void conclude(RuleEvaluation& e, double p_larger, double p_smaller,
              const EvaluationSettings& settings, const std::string& more) {
  const bool lower = e.rule.better == Direction::kLowerIsBetter;
  e.p_value = lower ? p_larger : p_smaller;
  decide_verdict(e, lower ? p_smaller : p_larger, settings.alpha, more);
  if (e.verdict != Verdict::kRegressed || e.rule.severity != Severity::kNeedsJustification) return;
  const JustificationCheck j = infergate::check_justification(e.rule, settings.justification_root);
  e.justified = j.justified;
  e.reason += "; " + j.reason;
}

namespace {

// Per-request samples of every repetition when the metric is a latency statistic and every
// repetition recorded its requests; otherwise each repetition's single value.
RepetitionSamples bootstrap_samples(const PointResult& point, const MetricKey& key,
                                    const std::vector<double>& values) {
  RepetitionSamples s;
  bool per_request = key.is_per_request_stat() && key.stat != "min" && key.stat != "max";
  for (const RepetitionResult& rep : point.repetitions) {
    if (!per_request) break;
    s.repetitions.push_back(request_samples(rep.requests, key.metric));
    per_request = !s.repetitions.back().empty();
  }
  if (per_request) return s;
  s.repetitions.clear();
  for (double v : values) s.repetitions.push_back({v});
  return s;
}

// When the bootstrap resamples requests, the values shown and tested are the statistic of
// those same requests, so the table shows what was judged (the reader has already checked
// that the summaries agree with the records). A repetition's single value stays itself.
void use_judged_values(const RepetitionSamples& samples, const MetricKey& key,
                       std::vector<double>& values) {
  if (samples.repetitions.size() != values.size()) return;
  for (size_t i = 0; i < values.size(); ++i) {
    if (const auto v = sample_statistic(samples.repetitions[i], key.stat)) values[i] = *v;
  }
}

SampleStatistic statistic_for(const MetricKey& key) {
  if (key.stat == "mean") return mean_statistic();
  if (key.stat.size() > 1 && key.stat[0] == 'p') {
    return percentile_statistic(std::stod(key.stat.substr(1)));
  }
  return mean_statistic();  // one value per repetition: the statistic is never asked to reduce
}

bool all_finite(std::initializer_list<double> values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

}  // namespace

RuleEvaluation evaluate_rule(const GateRule& rule, const PointResult& baseline,
                             const PointResult& candidate, const std::string& point,
                             const EvaluationSettings& settings) {
  if (rule.exact) return evaluate_exact_rule(rule, baseline, candidate, point, settings);
  RuleEvaluation e;
  e.rule = rule;
  e.point = point;
  if (!read_values(e, baseline, candidate)) return e;
  const RepetitionSamples base_samples =
      bootstrap_samples(baseline, rule.metric, e.baseline_values);
  const RepetitionSamples cand_samples =
      bootstrap_samples(candidate, rule.metric, e.candidate_values);
  use_judged_values(base_samples, rule.metric, e.baseline_values);
  use_judged_values(cand_samples, rule.metric, e.candidate_values);
  e.baseline = mean(e.baseline_values);
  e.candidate = mean(e.candidate_values);
  e.effective_threshold = effective_threshold(rule, e.baseline);
  const int have = int(std::min(e.baseline_values.size(), e.candidate_values.size()));
  e.relative_change = e.baseline != 0 ? e.candidate / e.baseline - 1 : NAN;
  e.interval_lo = e.interval_hi = e.p_value = NAN;  // until estimated below
  if (have < rule.min_repetitions) {
    e.reason = "needs " + std::to_string(rule.min_repetitions) + " repetitions per side, has " +
               std::to_string(e.baseline_values.size()) + " (baseline) and " +
               std::to_string(e.candidate_values.size()) + " (candidate)";
    return e;
  }
  if (e.baseline == 0) {
    e.verdict = e.candidate == 0 ? Verdict::kPass : Verdict::kInconclusive;
    e.reason = e.candidate == 0 ? "zero on both sides"
                                : "the baseline is zero: a relative change is undefined";
    return e;
  }
  const RelativeChange change = bootstrap_relative_change(
      base_samples, cand_samples, statistic_for(rule.metric),
      BootstrapOptions{settings.bootstrap_iterations, settings.confidence, settings.seed});
  e.relative_change = change.estimate;
  e.interval_lo = change.interval.lo;
  e.interval_hi = change.interval.hi;
  if (!all_finite({e.relative_change, e.interval_lo, e.interval_hi})) {
    e.verdict = Verdict::kInconclusive;  // never a verdict on an interval that is not a number
    e.reason = "the change or its interval is not a finite number (values out of range?)";
    return e;
  }
  const MannWhitneyResult u = mann_whitney_u(e.candidate_values, e.baseline_values);
  conclude(e, u.p_greater, u.p_less, settings, "repetitions");
  return e;
}

}  // namespace infergate
