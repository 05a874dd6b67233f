#include "gates/ab/ab_design.h"

#include <algorithm>

#include "gates/verdict/paired_rule_evaluator.h"
#include "gates/verdict/verdict.h"

namespace infergate {

bool candidate_runs_first(int pair_index) { return pair_index % 2 == 1; }

int first_look(const AbDesign& design, const RuleSet& rules, const std::string& workload) {
  int pairs = std::max(design.min_pairs, 2);
  for (const GateRule& rule : rules.rules) {
    if (rule.applies_to(workload) && rule.severity != Severity::kWarn) {
      pairs = std::max(pairs, min_pairs(rule, rules.alpha));
    }
  }
  return pairs + pairs % 2;
}

bool is_look(int pairs, int first_look) { return pairs >= first_look && pairs % 2 == 0; }

AbStop next_step(const AbDesign& design, int pairs, int gate_exit, int regressed_in_a_row,
                 double elapsed_s, double seconds_per_pair) {
  if (gate_exit == kExitRegression) {
    if (regressed_in_a_row >= design.regression_looks) return AbStop::kDecided;
  } else if (gate_exit != kExitInconclusive) {
    return AbStop::kDecided;
  }
  if (pairs + 2 > design.max_pairs) return AbStop::kMaxPairs;
  if (elapsed_s + 2 * seconds_per_pair > design.budget_seconds) return AbStop::kBudget;
  return AbStop::kContinue;
}

const char* describe(AbStop stop) {
  switch (stop) {
    case AbStop::kContinue:
      return "continuing";
    case AbStop::kDecided:
      return "decided";
    case AbStop::kMaxPairs:
      return "inconclusive at the pair limit (--max-pairs)";
    case AbStop::kBudget:
      return "inconclusive within the time budget (--budget-minutes)";
  }
  return "?";
}

}  // namespace infergate
