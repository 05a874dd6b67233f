// `history prune`: the retention policy (docs/history.md). A run is pruned when it is older
// than the age limit and not among the newest runs of its workload on its machine (either
// limit alone when only one is given); runs at either end of a recorded change point are kept,
// so its commit range can still be bisected and reported. Pruning drops whole runs, or with
// files_only only their stored results files (their metrics stay for trends and detection).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history/history_store.h"

namespace infergate {

struct RetentionPolicy {
  std::optional<int> keep_runs;        // the newest N per workload and machine stay
  std::optional<double> max_age_days;  // runs created within this many days stay
  std::string workload;                // "" for every workload
  bool files_only = false;
  bool dry_run = false;
  std::string now;  // "" for the current time; else ISO 8601 UTC (tests)
};

struct PruneOutcome {
  std::vector<int64_t> runs;  // pruned (or, on a dry run, that would be)
  int64_t bytes = 0;          // of their stored results files
};

// Throws std::invalid_argument when neither limit is given or one is out of range; one
// transaction, so a prune stopped half-way prunes nothing.
PruneOutcome prune_history(HistoryStore& store, const RetentionPolicy& policy);

}  // namespace infergate
