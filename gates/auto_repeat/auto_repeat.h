// `compare --auto-repeat`: more repetitions for a side of an inconclusive comparison, run by the
// infergate binary that can reproduce it, on the workload its results file recorded.
#pragma once

#include <string>

#include "common/results/results_file.h"

namespace infergate {

// Runs `binary run WORKLOAD --repeat N --quiet --out FILE` (with --requests when `side` recorded
// its requests) on the resolved workload of `side`, in `scratch_dir`, and appends the new
// repetitions to the matching points of `side`, renumbered after the existing ones. Throws
// std::runtime_error naming the command and its log when the run fails.
// `time_limit_s` (0: none) bounds the run; one past it, failed, or without results throws with
// the end of what it printed.
void append_repetitions(ResultsFile& side, const std::string& binary, int repetitions,
                        const std::string& scratch_dir, const std::string& label,
                        double time_limit_s = 0);

// Appends the repetitions of each point of `more` to the point of `side` with the same sweep
// value, renumbered after the existing ones (also how `infergate ab` gathers its pairs).
void append_repetitions_from(ResultsFile& side, const ResultsFile& more);

}  // namespace infergate
