// How bisect judges a commit: one gate rule built from --metric, --threshold and --better,
// evaluated against the good end (gates/verdict/rule_evaluator.h), and the answer it gives
// `git bisect run` (docs/bisect.md).
#pragma once

#include <optional>
#include <string>

#include "gates/rules/gate_rule.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

// The exit codes `git bisect run` understands.
enum class StepAnswer {
  kGood = 0,    // no regression against the good end
  kBad = 1,     // regressed against the good end
  kSkip = 125,  // cannot tell: the build failed, or still inconclusive after every round
};

const char* to_string(StepAnswer a);  // "good", "bad", "skip"

// The direction a metric improves in, from the metric registry (common/results/metric_registry.h):
// lower for latencies, durations and sizes, higher for rates and good_fraction; nullopt when the
// registry gives none (pass --better).
std::optional<Direction> default_direction(const MetricKey& key);

// The rule bisect judges with: `threshold` is a fraction (0.05 = 5%), `repetitions` is what each
// side needs before anything but inconclusive can come out.
GateRule bisect_rule(const MetricKey& key, Direction better, double threshold, int repetitions);

// regressed -> bad; pass and improved -> good; inconclusive -> nullopt (measure more, or skip).
std::optional<StepAnswer> answer_for(Verdict v);

// The ends' comparison in one line, when it is not a regression: "the ends do not differ:
// summary.tpot_ms.p95 +1.20% [-3.10%, +4.00%], p = 0.42 (threshold 5%)", with the reason the
// bad end is not worse when it is better or the comparison stayed inconclusive.
std::string ends_do_not_differ_message(const RuleEvaluation& ends);
// "summary.tpot_ms.p95 +1.20% [-3.10%, +4.00%], p = 0.42 (threshold 5%)"
std::string change_summary(const RuleEvaluation& e);

}  // namespace infergate
