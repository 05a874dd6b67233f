// `infergate calibrate --paired`: the noise and the verdict rates of `infergate ab` on this
// machine (docs/gates.md, "Paired A/B"). Rounds of fresh-process runs of this build, in a
// rotating order: two unchanged (A/A pairs) and one per injected slowdown (A/B pairs with a
// known effect); then ab's sequential procedure replayed on resampled pairs, for the default
// budget and as a curve over budgets.
#pragma once

#include <string>
#include <vector>

#include "gates/rules/rule_set.h"

namespace infergate {

struct PairedCalibrationArguments {
  std::string workload;           // run the rounds; or
  std::string from_dir;           // re-judge the runs saved in this folder by an earlier one
  std::vector<std::string> sets;  // workload overrides for every run
  std::vector<double> slowdowns;  // e.g. 0.05 and 0.1
  int rounds = 20;
  int trials = 200;
  int max_pairs = 60;
  double budget_minutes = 10;
  std::string noise_out, store;
  bool capacity_search = false;  // the workload bisects load.search: probe around its capacity
};

// Prints the tables and writes the noise profile (with its paired section); returns the exit
// code.
int calibrate_paired(const PairedCalibrationArguments& args, const RuleSet& rules);

}  // namespace infergate
