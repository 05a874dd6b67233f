// How often `infergate ab` would give each verdict, judged on pairs of real runs made by
// `calibrate --paired`: each trial replays ab's sequential procedure (gates/ab/ab_design.h) on
// the pairs drawn in a random order, so the rates include its looks and its budget.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/ab/ab_design.h"
#include "gates/calibrate/verdict_rates.h"
#include "gates/rules/rule_set.h"

namespace infergate {

struct SequentialPlan {
  AbDesign design;  // max_pairs is also capped by the pairs available
  double seconds_per_pair = 0;
  int trials = 200;
  uint64_t seed = 1;
};

struct SequentialRates {
  std::vector<VerdictCounts> counts;  // one row per applicable rule, then kGateRow
  double mean_pairs = 0;              // pairs a trial ran before it stopped
};

// Pair i is (baseline.repetitions[i], candidate.repetitions[i]). Throws std::invalid_argument
// when the points have different repetition counts or fewer than two pairs.
SequentialRates sequential_paired_verdicts(const PointResult& baseline,
                                           const PointResult& candidate, const RuleSet& rules,
                                           const std::string& workload, const SequentialPlan& plan);

}  // namespace infergate
