#include "gates/verdict/judged_rules.h"

#include <algorithm>

#include "gates/verdict/exact_rule_evaluator.h"

namespace infergate {

namespace {

bool is_search(const PointResult& p) {
  return std::any_of(p.repetitions.begin(), p.repetitions.end(),
                     [](const RepetitionResult& r) { return r.search.has_value(); });
}

bool judges_capacity(const GateRule& rule) {
  return rule.metric.metric.starts_with("capacity_at_slo");
}

}  // namespace

std::vector<const GateRule*> judged_rules(const RuleSet& rules, const std::string& workload,
                                          const PointResult& baseline,
                                          const PointResult& candidate) {
  std::vector<const GateRule*> judged;
  const bool search = is_search(baseline) || is_search(candidate);
  for (const GateRule& rule : rules.rules) {
    if (!rule.applies_to(workload) || judges_capacity(rule) != search) continue;
    if (rule.exact && !measured_on_either_side(rule, baseline, candidate)) continue;
    judged.push_back(&rule);
  }
  return judged;
}

}  // namespace infergate
