// What `compare`, `report` and `calibrate` share: the rules to apply (--rules or the built-in
// default) and the baseline to compare with (a file, or the store's for the candidate).
#pragma once

#include <string>

#include "common/results/results_file.h"
#include "gates/rules/rule_set.h"

namespace infergate {

// `path` empty: the compiled-in gates/default.json.
RuleSet load_rules_or_default(const std::string& path);
// `baseline_path` empty: the baseline stored under `store_root` for the candidate's workload
// and machine (throws BaselineError when there is none).
ResultsFile load_baseline(const std::string& baseline_path, const std::string& store_root,
                          const ResultsFile& candidate);
// The noise calibration beside a baseline file ("X.json" -> "X.noise.json"), or "" if none.
std::string noise_file_beside(const std::string& baseline_path);

}  // namespace infergate
