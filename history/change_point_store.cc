#include "history/change_point_store.h"

#include <set>

#include "common/util/time_stamp.h"

namespace infergate {

namespace {

constexpr const char* kColumns =
    "id, workload, machine_key, sweep, metric, commit_before, commit_after, run_before, "
    "run_after, created_after, mean_before, mean_after, change, change_lo, change_hi, p_value, "
    "direction, found_commit";

ChangePoint change_point_from(const SqlStatement& s) {
  ChangePoint c;
  c.id = s.int64(0);
  c.series = {s.text(1), s.text(2), s.text(3), s.text(4)};
  c.commit_before = s.text(5);
  c.commit_after = s.text(6);
  c.run_before = s.int64(7);
  c.run_after = s.int64(8);
  c.created_after = s.text(9);
  c.mean_before = s.real(10);
  c.mean_after = s.real(11);
  c.change = {s.real(12), {s.real(13), s.real(14)}};
  c.p_value = s.real(15);
  c.direction = s.text(16);
  c.found_commit = s.text(17);
  return c;
}

void bind_series(SqlStatement& s, const SeriesKey& k) {
  s.bind(1, k.workload).bind(2, k.machine_key).bind(3, k.sweep).bind(4, k.metric);
}

}  // namespace

void ChangePointStore::record(const SeriesKey& series, std::vector<ChangePoint>& detected) {
  SqlTransaction tx(db_);
  const auto upsert = db_.prepare(
      "INSERT INTO change_points(workload, machine_key, sweep, metric, commit_before, "
      "commit_after, run_before, run_after, created_after, mean_before, mean_after, change, "
      "change_lo, change_hi, p_value, direction, detected_at) "
      "VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
      "ON CONFLICT(workload, machine_key, sweep, metric, commit_after) DO UPDATE SET "
      "commit_before = excluded.commit_before, run_before = excluded.run_before, "
      "run_after = excluded.run_after, created_after = excluded.created_after, "
      "mean_before = excluded.mean_before, mean_after = excluded.mean_after, "
      "change = excluded.change, change_lo = excluded.change_lo, "
      "change_hi = excluded.change_hi, p_value = excluded.p_value, "
      "direction = excluded.direction, detected_at = excluded.detected_at "
      "RETURNING id, found_commit");
  const std::string now = utc_iso8601_now();
  std::set<int64_t> current;
  for (ChangePoint& c : detected) {
    upsert->reset();
    bind_series(*upsert, series);
    upsert->bind(5, c.commit_before)
        .bind(6, c.commit_after)
        .bind(7, c.run_before)
        .bind(8, c.run_after)
        .bind(9, c.created_after)
        .bind(10, c.mean_before)
        .bind(11, c.mean_after)
        .bind(12, c.change.estimate)
        .bind(13, c.change.interval.lo)
        .bind(14, c.change.interval.hi)
        .bind(15, c.p_value)
        .bind(16, c.direction)
        .bind(17, now);
    if (!upsert->step()) throw HistoryError("recording a change point returned no row");
    c.id = upsert->int64(0);
    c.found_commit = upsert->text(1);
    upsert->run();
    current.insert(c.id);
  }
  // The series' change points no longer detected go.
  const auto stored = db_.prepare(
      "SELECT id FROM change_points WHERE workload = ? AND machine_key = ? AND sweep = ? AND "
      "metric = ?");
  bind_series(*stored, series);
  std::vector<int64_t> stale;
  while (stored->step()) {
    if (!current.contains(stored->int64(0))) stale.push_back(stored->int64(0));
  }
  const auto drop = db_.prepare("DELETE FROM change_points WHERE id = ?");
  for (int64_t id : stale) {
    drop->reset();
    drop->bind(1, id);
    drop->run();
  }
  tx.commit();
}

std::vector<ChangePoint> ChangePointStore::all() const {
  const auto s = db_.prepare(std::string("SELECT ") + kColumns +
                             " FROM change_points ORDER BY created_after DESC, id");
  std::vector<ChangePoint> out;
  while (s->step()) out.push_back(change_point_from(*s));
  return out;
}

std::optional<ChangePoint> ChangePointStore::find(int64_t id) const {
  const auto s =
      db_.prepare(std::string("SELECT ") + kColumns + " FROM change_points WHERE id = ?");
  s->bind(1, id);
  if (!s->step()) return std::nullopt;
  return change_point_from(*s);
}

void ChangePointStore::set_found_commit(int64_t id, const std::string& commit) {
  const auto s = db_.prepare("UPDATE change_points SET found_commit = ? WHERE id = ? RETURNING id");
  s->bind(1, commit).bind(2, id);
  if (!s->step()) {
    throw HistoryError("history database " + db_.path() + ": no change point " +
                       std::to_string(id) + " (see history detect)");
  }
  s->run();
}

}  // namespace infergate
