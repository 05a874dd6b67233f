// Measuring one commit: its own `infergate run` on the workload, in rounds of --repeat
// repetitions, each round's results file cached next to the commit's build
// (<commit dir>/measurements/<key>-round<k>.json) and reused by later bisects unless told not to.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/bisect/commit_build_cache.h"

namespace infergate {

struct MeasureSpec {
  std::string workload_path;      // absolute; the same file for every commit
  std::vector<std::string> sets;  // --set assignments passed to every run
  int repetitions = 5;            // per round
  bool reuse = true;              // take a cached round as it is
  std::string working_dir;        // where the runs start: the user's directory
};

struct Measurement {  // one round
  std::string results_path, log_path;
  bool ok = false;
  bool reused = false;
  double seconds = 0;  // spent running now
  std::string error;   // why not ok, naming the log
};

// The cache key of a round: the workload file's bytes, the --set list and the repetition count
// (the metric is not part of it: every metric is in the results file).
std::string measurement_key(const MeasureSpec& spec);
// Round `round` (0-based) of `spec` with the build's binary:
//   BINARY run WORKLOAD --repeat N --requests --quiet --out FILE [--set A]...
// The results file is cached only when the run finished and the file is complete. Throws
// Interrupted when interrupted.
Measurement measure_round(const CommitBuild& build, const MeasureSpec& spec, int round,
                          std::ostream& progress);

// The repetitions of several rounds' results files as one point, renumbered in order. Throws
// std::runtime_error when a file has more than one point (a sweep: bisect judges one point).
PointResult merge_rounds(const std::vector<std::string>& results_paths);

}  // namespace infergate
