// `infergate diagnose --verify`: each proposed remedy measured against the workload as it ran,
// as paired fresh-process runs in ABBA order (gates/ab: the baseline without the remedy's sets,
// the candidate with them, the same binary), judged on the remedy's metric, within a time budget
// split over the remedies (docs/diagnose.md, "--verify").
#pragma once

#include <functional>
#include <string>

#include "gates/diagnose/diagnosis.h"

namespace infergate {

struct VerifySettings {
  std::string workload_path;  // the workload both sides run
  std::string binary;         // the infergate executable both sides run
  std::string out_dir;        // a folder per remedy (absolute)
  double budget_seconds = 600;
  int max_remedies = 0;  // verify the first N overrides in rank order; 0: all the budget holds
  // Seconds one run of the workload takes, start-up included, before any was measured here
  // (from the results' own duration); pairs are counted from it until a remedy has run.
  double seconds_per_run_guess = 10;
  std::function<void(const std::string&)> progress;
};

// The relative change a remedy must beat to count (5%), and the paired test's level: 0.05 needs
// 5 pairs for the signed-rank test to reach it, 6 with ABBA's whole blocks.
inline constexpr double kRemedyThreshold = 0.05;
inline constexpr double kRemedyAlpha = 0.05;

// Fills every remedy's `check`: confirmed, refuted, worse or inconclusive from its paired runs;
// "not run" for one that is no override or does not fit its share of the budget (saying so);
// "failed" when a run failed. Throws Interrupted on Ctrl-C.
void verify_remedies(Diagnosis& diagnosis, const VerifySettings& settings);

}  // namespace infergate
