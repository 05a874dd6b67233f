// One rule judged on paired runs (docs/gates.md, "Paired A/B"): repetition i of the baseline
// and repetition i of the candidate ran next to each other in time (`infergate ab`), so each
// pair's ratio cancels what the machine did to both. The change is the geometric mean of the
// ratios with a Student-t interval of the mean log ratio; the test is a one-sided Wilcoxon
// signed-rank test on the log ratios; the verdict follows the same rule as the unpaired one.
#pragma once

#include <string>

#include "common/results/results_file.h"
#include "gates/rules/gate_rule.h"
#include "gates/verdict/rule_evaluation.h"
#include "gates/verdict/rule_evaluator.h"

namespace infergate {

// The pairs a rule needs: its min_repetitions, and at least the count at which the signed-rank
// test can reach `alpha` at all (7 at 0.01).
int min_pairs(const GateRule& rule, double alpha);

// Inconclusive when the sides have different repetition counts, fewer than min_pairs() pairs,
// a missing metric, or a value <= 0 (a ratio is undefined).
RuleEvaluation evaluate_paired_rule(const GateRule& rule, const PointResult& baseline,
                                    const PointResult& candidate, const std::string& point,
                                    const EvaluationSettings& settings);

}  // namespace infergate
