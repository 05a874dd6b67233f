#include "history/history_retention.h"

#include <ctime>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include "common/util/time_stamp.h"

namespace infergate {

namespace {

// Seconds since the epoch of "2026-12-01T10:00:00Z"; nullopt for anything else.
std::optional<int64_t> epoch_seconds(const std::string& iso) {
  std::tm tm{};
  const char* end = strptime(iso.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (end == nullptr) return std::nullopt;
  return int64_t(timegm(&tm));
}

void check(const RetentionPolicy& p) {
  if (!p.keep_runs && !p.max_age_days) {
    throw std::invalid_argument("history prune needs --keep-runs N, --max-age-days D or both");
  }
  if (p.keep_runs && *p.keep_runs < 1) {
    throw std::invalid_argument("--keep-runs: allowed: >= 1, got " + std::to_string(*p.keep_runs));
  }
  if (p.max_age_days && !(*p.max_age_days > 0)) {
    throw std::invalid_argument("--max-age-days: allowed: > 0");
  }
}

// The runs at the ends of recorded change points.
std::set<int64_t> change_point_runs(SqlDatabase& db) {
  std::set<int64_t> ids;
  const auto s = db.prepare("SELECT run_before, run_after FROM change_points");
  while (s->step()) ids.insert({s->int64(0), s->int64(1)});
  return ids;
}

bool pruned(const StoredRun& r, int newer_runs, const RetentionPolicy& p, int64_t now) {
  const bool beyond_count = p.keep_runs && newer_runs >= *p.keep_runs;
  const std::optional<int64_t> created = epoch_seconds(r.created_at);
  const bool too_old =
      p.max_age_days && created && double(now - *created) > *p.max_age_days * 86'400;
  if (p.keep_runs && p.max_age_days) return beyond_count && too_old;
  return p.keep_runs ? beyond_count : too_old;
}

}  // namespace

PruneOutcome prune_history(HistoryStore& store, const RetentionPolicy& policy) {
  check(policy);
  const std::string now_text = policy.now.empty() ? utc_iso8601_now() : policy.now;
  const std::optional<int64_t> now = epoch_seconds(now_text);
  if (!now) throw std::invalid_argument("prune: '" + now_text + "' is not an ISO 8601 time");
  SqlDatabase& db = store.database();
  SqlTransaction tx(db);
  const std::set<int64_t> kept = change_point_runs(db);
  const std::vector<StoredRun> runs = store.runs(policy.workload);  // oldest first
  std::map<std::pair<std::string, std::string>, int> newer;  // runs seen so far, newest first
  PruneOutcome out;
  const auto size = db.prepare("SELECT results_size FROM runs WHERE id = ?");
  for (auto r = runs.rbegin(); r != runs.rend(); ++r) {
    int& count = newer[{r->workload, r->machine_key}];
    const bool drop = pruned(*r, count, policy, *now) && !kept.contains(r->id);
    ++count;
    if (!drop) continue;
    size->reset();
    size->bind(1, r->id);
    size->step();
    const int64_t bytes = size->int64(0);
    if (policy.files_only && bytes == 0) continue;  // its file is already gone
    out.runs.push_back(r->id);
    out.bytes += bytes;
  }
  if (policy.dry_run) return out;
  const auto drop =
      db.prepare(policy.files_only ? "UPDATE runs SET results = ?, results_size = 0 WHERE id = ?"
                                   : "DELETE FROM runs WHERE id = ?");
  for (int64_t id : out.runs) {
    drop->reset();
    if (policy.files_only) {
      drop->bind_blob(1, {}).bind(2, id);
    } else {
      drop->bind(1, id);
    }
    drop->run();
  }
  tx.commit();
  return out;
}

}  // namespace infergate
