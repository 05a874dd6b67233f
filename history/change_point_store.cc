#include "history/change_point_store.h"

#include <sqlite3.h>

#include "common/util/time_stamp.h"

namespace infergate {

namespace {

constexpr const char* kColumns =
    "id, workload, machine_key, sweep, metric, commit_before, commit_after, run_before, "
    "run_after, created_after, mean_before, mean_after, change, change_lo, change_hi, p_value, "
    "direction, found_commit";

ChangePoint change_point_from(const SqliteStatement& s) {
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

void bind_series(SqliteStatement& s, const SeriesKey& k) {
  s.bind(1, k.workload).bind(2, k.machine_key).bind(3, k.sweep).bind(4, k.metric);
}

}  // namespace

void ChangePointStore::record(const SeriesKey& series, std::vector<ChangePoint>& detected) {
  SqliteTransaction tx(db_);
  SqliteStatement upsert(
      db_,
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
  db_.exec("CREATE TEMP TABLE IF NOT EXISTS detected(commit_after TEXT)");
  db_.exec("DELETE FROM detected");
  SqliteStatement keep(db_, "INSERT INTO detected VALUES(?)");
  const std::string now = utc_iso8601_now();
  for (ChangePoint& c : detected) {
    upsert.reset();
    bind_series(upsert, series);
    upsert.bind(5, c.commit_before)
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
    if (!upsert.step()) throw HistoryError("recording a change point returned no row");
    c.id = upsert.int64(0);
    c.found_commit = upsert.text(1);
    upsert.run();
    keep.reset();
    keep.bind(1, c.commit_after);
    keep.run();
  }
  SqliteStatement stale(db_,
                        "DELETE FROM change_points WHERE workload = ? AND machine_key = ? AND "
                        "sweep = ? AND metric = ? AND commit_after NOT IN "
                        "(SELECT commit_after FROM detected)");
  bind_series(stale, series);
  stale.run();
  tx.commit();
}

std::vector<ChangePoint> ChangePointStore::all() const {
  SqliteStatement s(db_, std::string("SELECT ") + kColumns +
                             " FROM change_points ORDER BY created_after DESC, id");
  std::vector<ChangePoint> out;
  while (s.step()) out.push_back(change_point_from(s));
  return out;
}

std::optional<ChangePoint> ChangePointStore::find(int64_t id) const {
  SqliteStatement s(db_, std::string("SELECT ") + kColumns + " FROM change_points WHERE id = ?");
  s.bind(1, id);
  if (!s.step()) return std::nullopt;
  return change_point_from(s);
}

void ChangePointStore::set_found_commit(int64_t id, const std::string& commit) {
  SqliteStatement s(db_, "UPDATE change_points SET found_commit = ? WHERE id = ?");
  s.bind(1, commit).bind(2, id);
  s.run();
  if (sqlite3_changes(db_.handle()) == 0) {
    throw HistoryError("history database " + db_.path() + ": no change point " +
                       std::to_string(id) + " (see history detect)");
  }
}

}  // namespace infergate
