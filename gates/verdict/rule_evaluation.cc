#include "gates/verdict/rule_evaluation.h"

namespace infergate {

bool RuleEvaluation::blocks() const {
  if (verdict != Verdict::kRegressed) return false;
  return rule.severity == Severity::kFail ||
         (rule.severity == Severity::kNeedsJustification && !justified);
}

bool RuleEvaluation::blocks_as_inconclusive() const {
  return verdict == Verdict::kInconclusive && rule.severity != Severity::kWarn;
}

}  // namespace infergate
