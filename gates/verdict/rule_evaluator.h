// One rule judged on one sweep point: the change is estimated with a bootstrap interval
// (over repetitions, and over each repetition's requests for latency percentiles) and tested
// with a one-sided Mann-Whitney U test over repetitions (docs/gates.md, "Verdicts").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/rules/gate_rule.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

struct EvaluationSettings {
  double alpha = 0.05;
  double confidence = 0.95;
  int bootstrap_iterations = 2000;
  uint64_t seed = 1;
  std::string justification_root = ".";
};

// regressed: the estimate is beyond the threshold in the worse direction, the U test is
//            significant, and the interval excludes no change;
// improved:  the same in the better direction;
// pass:      the interval's worse end is within the threshold;
// otherwise inconclusive (and always when a side has fewer than min_repetitions, or a metric
// is missing).
// Shared with the paired evaluator (paired_rule_evaluator.h). Reads each side's per-repetition
// values of e.rule's metric into e; when one is missing, sets e's reason and its estimates to
// NaN (shown as "-", never as 0) and returns false.
bool read_values(RuleEvaluation& e, const PointResult& baseline, const PointResult& candidate);
// The larger of the relative threshold and the absolute one divided by |baseline|.
double effective_threshold(const GateRule& rule, double baseline);
// The end of both evaluators: with the test's one-sided p-values for "the candidate's values are
// larger" and "smaller", the verdict in the rule's direction (verdict_decision.h), then, for a
// needs-justification rule that regressed, the justification check. `more` names what would
// decide an inconclusive rule ("repetitions", "pairs").
void conclude(RuleEvaluation& e, double p_larger, double p_smaller,
              const EvaluationSettings& settings, const std::string& more);

RuleEvaluation evaluate_rule(const GateRule& rule, const PointResult& baseline,
                             const PointResult& candidate, const std::string& point,
                             const EvaluationSettings& settings);

}  // namespace infergate
