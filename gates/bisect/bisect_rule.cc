#include "gates/bisect/bisect_rule.h"

#include <string_view>

#include "common/report/metric_format.h"
#include "common/results/metric_registry.h"

namespace infergate {

namespace {}  // namespace

const char* to_string(StepAnswer a) {
  switch (a) {
    case StepAnswer::kGood:
      return "good";
    case StepAnswer::kBad:
      return "bad";
    case StepAnswer::kSkip:
      return "skip";
  }
  return "?";
}

std::optional<Direction> default_direction(const MetricKey& key) {
  const std::optional<MetricInfo> info = find_metric(key.metric);
  if (!info || info->improves == Improves::kNeither) return std::nullopt;
  return info->improves == Improves::kLower ? Direction::kLowerIsBetter
                                            : Direction::kHigherIsBetter;
}

GateRule bisect_rule(const MetricKey& key, Direction better, double threshold, int repetitions) {
  GateRule rule;
  rule.name = "bisect";
  rule.description = "bisect: " + key.text + ", " + to_string(better) + " is better";
  rule.metric = key;
  rule.better = better;
  rule.relative_threshold = threshold;
  rule.min_repetitions = repetitions;
  return rule;
}

std::optional<StepAnswer> answer_for(Verdict v) {
  switch (v) {
    case Verdict::kRegressed:
      return StepAnswer::kBad;
    case Verdict::kPass:
    case Verdict::kImproved:
      return StepAnswer::kGood;
    case Verdict::kInconclusive:
      return std::nullopt;
  }
  return std::nullopt;
}

std::string change_summary(const RuleEvaluation& e) {
  const double threshold = e.rule.relative_threshold.value_or(e.effective_threshold);
  return e.rule.metric.text + " " + format_change(e.relative_change) + " " +
         format_interval(e.interval_lo, e.interval_hi) + ", p = " + format_p_value(e.p_value) +
         " (threshold " + format_number(threshold * 100, 3) + "%)";
}

std::string ends_do_not_differ_message(const RuleEvaluation& ends) {
  std::string why;
  if (ends.verdict == Verdict::kImproved) why = " (the bad end is better)";
  if (ends.verdict == Verdict::kInconclusive) {
    why = " (inconclusive with " + std::to_string(ends.candidate_values.size()) +
          " repetitions a side; a larger --repeat or --threshold may decide)";
  }
  return "the ends do not differ" + why + ": " + change_summary(ends);
}

}  // namespace infergate
