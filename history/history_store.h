// Every results file stored, for the long view (docs/history.md): the run's workload, hash,
// machine key, commit, build, time, every summary metric per point and repetition, and the file
// itself (zlib-compressed), so a stored run can be re-judged or re-reported later. SQLite, one
// file (by default results/history.sqlite beside the baselines), or PostgreSQL for a team:
// concurrent writers wait for each other, and a writer killed mid-way leaves nothing
// half-written.
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "history/sql_database.h"

namespace infergate {

struct StoredRun {
  int64_t id = 0;
  std::string workload, workload_hash, machine_key, commit, created_at, added_at, source;
  bool dirty = false;  // the commit's worktree had changes
  nlohmann::json build;
};

// One summary value: `metric` is the summary's name, with ".p50" etc. for distributions.
struct StoredMetric {
  int64_t run_id = 0;
  int point = 0;
  std::string sweep;  // "load.concurrency=8"; "" without a sweep
  int repetition = 0;
  std::string metric;
  double value = 0;
};

struct AddOutcome {
  int64_t id = 0;
  bool added = false;  // false: the same file (by content) was stored before, as run `id`
};

// Every metric name add can store ("tpot_ms.p95", "request_throughput_rps", ...): what a
// --metric filter may name.
std::vector<std::string> storable_metric_names();

class HistoryStore {
 public:
  // Opens (creating and migrating) the database at `location`: a SQLite file's path, or a
  // postgresql:// URL (docs/history.md).
  explicit HistoryStore(const std::string& location);

  // Stores one results file, in one transaction. Throws ResultsError for a file that is not a
  // valid results file and HistoryError for the database; either way nothing is stored.
  AddOutcome add(const std::string& results_path);
  // Runs, oldest first (by the results' created_at), of one workload or all ("").
  std::vector<StoredRun> runs(const std::string& workload = "") const;
  std::vector<StoredMetric> metrics(const std::string& workload = "") const;
  // The results file of run `id`, byte for byte as it was added.
  std::string results_text(int64_t id) const;
  const std::string& path() const { return db_->path(); }
  SqlDatabase& database() const { return *db_; }

 private:
  std::unique_ptr<SqlDatabase> db_;
};

}  // namespace infergate
