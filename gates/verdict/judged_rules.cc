#include "gates/verdict/judged_rules.h"

#include "gates/verdict/exact_rule_evaluator.h"

namespace infergate {

std::vector<const GateRule*> judged_rules(const RuleSet& rules, const std::string& workload,
                                          const PointResult& baseline,
                                          const PointResult& candidate) {
  std::vector<const GateRule*> judged;
  for (const GateRule& rule : rules.rules) {
    if (!rule.applies_to(workload)) continue;
    if (rule.exact && !measured_on_either_side(rule, baseline, candidate)) continue;
    judged.push_back(&rule);
  }
  return judged;
}

}  // namespace infergate
