// A rule of kind "quality" (GateRule::exact) judged on one sweep point: the metric is computed,
// not sampled, so the two sides' means are compared directly against the thresholds, in the
// metric's own units (docs/gates.md, "Quality rules").
#pragma once

#include <string>

#include "common/results/results_file.h"
#include "gates/verdict/rule_evaluation.h"
#include "gates/verdict/rule_evaluator.h"

namespace infergate {

// True when some repetition of either side carries the rule's metric: a workload without a
// quality section is not judged by quality rules at all.
bool measured_on_either_side(const GateRule& rule, const PointResult& baseline,
                             const PointResult& candidate);

// regressed: the candidate is worse by more than every threshold given (absolute: in the
//            metric's units; relative: a fraction of |baseline|);
// improved:  better by more than every threshold; pass otherwise;
// inconclusive when one side lacks the metric or has fewer than min_repetitions.
RuleEvaluation evaluate_exact_rule(const GateRule& rule, const PointResult& baseline,
                                   const PointResult& candidate, const std::string& point,
                                   const EvaluationSettings& settings);

}  // namespace infergate
