// One metric's history in commit order: what change-point detection reads. A series is one
// workload on one machine at one sweep point; each of its points is one commit (or one run
// without a known commit), holding every repetition value of every run stored for it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "history/history_store.h"

namespace infergate {

struct SeriesKey {
  std::string workload, machine_key, sweep, metric;
  bool operator==(const SeriesKey&) const = default;
};

struct SeriesCommit {
  std::string commit;               // "abc123...", "abc123...+dirty", or "run 17" when unknown
  std::vector<int64_t> run_ids;     // oldest first
  std::string created_at;           // the first run's
  std::vector<double> values;       // every repetition of every run
  std::vector<int64_t> value_runs;  // the run each value came from
};

struct MetricSeries {
  SeriesKey key;
  std::vector<SeriesCommit> commits;  // in order of their first run
};

struct SeriesFilter {
  std::string workload;              // "" for every workload
  std::string machine_key;           // "" for every machine
  std::vector<std::string> metrics;  // the stored names ("tpot_ms.p95"); empty for all
  bool per_run = false;  // every run its own point, whatever its commit (A/A calibration)
};

// The series of every (workload, machine, sweep point, metric) the filter admits, sorted by
// key. A dirty worktree's runs are their own point ("<commit>+dirty"): its code was not the
// commit's.
std::vector<MetricSeries> build_metric_series(const std::vector<StoredRun>& runs,
                                              const std::vector<StoredMetric>& metrics,
                                              const SeriesFilter& filter);

// "tpot_ms.p95 of decode-heavy at load.concurrency=8 on <machine>"
std::string describe(const SeriesKey& key);

}  // namespace infergate
