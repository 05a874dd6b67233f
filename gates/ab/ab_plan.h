// Power-aware planning of `infergate ab` (docs/gates.md, "Paired A/B"): before running, from a
// paired calibration, the pairs each rule needs to detect its threshold with 95% power, whether
// the budget reaches that, and what it reaches if not; after running, what the pairs made can
// detect, from their own spread.
#pragma once

#include <string>
#include <vector>

#include "gates/ab/ab_design.h"
#include "gates/baseline/noise_profile.h"
#include "gates/rules/rule_set.h"
#include "gates/verdict/comparison.h"

namespace infergate {

inline constexpr double kPlanPower = 0.95;

struct RulePlan {
  std::string rule;
  double threshold = 0;   // relative
  double log_sd = 0;      // calibrated paired noise
  int pairs_needed = 0;   // for the threshold at kPlanPower
  double detectable = 0;  // at kPlanPower with AbPlan::budget_pairs
};

struct AbPlan {
  double seconds_per_pair = 0;
  int budget_pairs = 0;         // what the budget and max_pairs allow
  int pairs = 0;                // the most any rule needs, within budget_pairs
  std::vector<RulePlan> rules;  // fail rules with a relative threshold and calibrated noise
  bool reachable = true;        // every rule's threshold within budget_pairs
};

// Plans from `noise`'s paired section (empty plan when it has none: then ab looks first at the
// rules' minimum and sizes nothing in advance).
AbPlan plan_ab(const NoiseProfile& noise, const RuleSet& rules, const std::string& workload,
               const AbDesign& design);

// One line per rule, then whether the budget reaches every threshold and, if not, what it can.
std::vector<std::string> describe_plan(const AbPlan& plan, const AbDesign& design);

// After a session: for each rule evaluation still inconclusive, the change its pairs can
// detect with kPlanPower and the pairs (and minutes, at `seconds_per_pair`) its threshold
// would need, from the pairs' own spread.
std::vector<std::string> detectable_after(const Comparison& c, double seconds_per_pair);

}  // namespace infergate
