// The verdict of one rule from an estimated change, its interval and the one-sided p-values
// (docs/gates.md, "Verdicts"): the one rule that the unpaired evaluator (repetitions of two
// runs) and the paired one (gates/ab) both apply.
#pragma once

#include <string>

#include "gates/verdict/rule_evaluation.h"

namespace infergate {

// Reads e.relative_change, e.interval_lo/hi, e.effective_threshold, e.p_value (worse) and
// `p_better`; sets e.verdict and e.reason. `more` names what would decide an inconclusive
// rule ("repetitions", "pairs").
void decide_verdict(RuleEvaluation& e, double p_better, double alpha, const std::string& more);

// "+21.4%": a signed percentage with one decimal.
std::string signed_percent(double fraction);

}  // namespace infergate
