// What one rule concluded about one baseline/candidate pair (at one sweep point).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gates/rules/gate_rule.h"
#include "gates/verdict/verdict.h"

namespace infergate {

struct RuleEvaluation {
  GateRule rule;
  std::string point;  // "" without a sweep, else e.g. "load.rate=4"
  Verdict verdict = Verdict::kInconclusive;
  std::string reason;  // one line a person can act on

  // Per-repetition values of the metric on each side, and the estimates (means of those).
  std::vector<double> baseline_values, candidate_values;
  double baseline = 0, candidate = 0;
  // candidate / baseline - 1, its bootstrap interval, and the threshold it was judged against
  // (the larger of the relative threshold and the absolute one divided by the baseline). The
  // interval and p-value are NaN when the rule stopped before estimating them (too few
  // repetitions, a missing metric, a zero baseline).
  double relative_change = 0;
  double interval_lo = 0, interval_hi = 0;
  double effective_threshold = 0;
  // One-sided Mann-Whitney U p-value for "candidate is worse" over repetitions.
  double p_value = NAN;
  // Rule needs a justification and the file was found.
  bool justified = false;
  // A rule whose threshold is below what the calibrated noise can detect, etc.
  std::vector<std::string> warnings;

  // A regression that fails the gate: severity fail, or needs-justification without one.
  bool blocks() const;
  // An inconclusive answer from a rule that could fail the gate.
  bool blocks_as_inconclusive() const;
};

}  // namespace infergate
