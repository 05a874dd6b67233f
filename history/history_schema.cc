#include "history/history_schema.h"

#include <string>
#include <vector>

namespace infergate {

namespace {

// migrations[i] takes the schema from version i to i + 1. Never edit one that has shipped;
// add the next.
const std::vector<std::string>& migrations() {
  static const std::vector<std::string> m = {
      // 1: runs (one per results file, the file itself compressed) and their summary metrics.
      R"(CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
         CREATE TABLE runs(
           id INTEGER PRIMARY KEY,
           workload TEXT NOT NULL,
           workload_hash TEXT NOT NULL,
           machine_key TEXT NOT NULL,
           git_commit TEXT NOT NULL,
           git_dirty INTEGER NOT NULL,
           build TEXT NOT NULL,
           created_at TEXT NOT NULL,
           added_at TEXT NOT NULL,
           source TEXT NOT NULL,
           content_hash TEXT NOT NULL UNIQUE,
           results_size INTEGER NOT NULL,
           results BLOB NOT NULL);
         CREATE TABLE metrics(
           run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
           point INTEGER NOT NULL,
           sweep TEXT NOT NULL,
           repetition INTEGER NOT NULL,
           metric TEXT NOT NULL,
           value REAL NOT NULL);
         CREATE INDEX runs_by_series ON runs(workload, machine_key, created_at);
         CREATE INDEX metrics_by_run ON metrics(run_id, metric);)",
      // 2: change points found by history detect, and the commit bisect found for each.
      R"(CREATE TABLE change_points(
           id INTEGER PRIMARY KEY,
           workload TEXT NOT NULL,
           machine_key TEXT NOT NULL,
           sweep TEXT NOT NULL,
           metric TEXT NOT NULL,
           commit_before TEXT NOT NULL,
           commit_after TEXT NOT NULL,
           run_before INTEGER NOT NULL,
           run_after INTEGER NOT NULL,
           created_after TEXT NOT NULL,
           mean_before REAL NOT NULL,
           mean_after REAL NOT NULL,
           change REAL NOT NULL,
           change_lo REAL NOT NULL,
           change_hi REAL NOT NULL,
           p_value REAL NOT NULL,
           direction TEXT NOT NULL,
           detected_at TEXT NOT NULL,
           found_commit TEXT NOT NULL DEFAULT '',
           UNIQUE(workload, machine_key, sweep, metric, commit_after));)",
  };
  return m;
}

}  // namespace

int history_schema_version(SqliteDatabase& db) {
  SqliteStatement tables(db, "SELECT count(*) FROM sqlite_master WHERE name = 'meta'");
  tables.step();
  if (tables.int64(0) == 0) return 0;
  SqliteStatement version(db, "SELECT value FROM meta WHERE key = 'schema_version'");
  return version.step() ? std::stoi(version.text(0)) : 0;
}

void migrate_history_schema(SqliteDatabase& db) {
  SqliteTransaction tx(db);  // two processes opening a new database migrate it once
  const int version = history_schema_version(db);
  if (version > kHistorySchemaVersion) {
    throw HistoryError("history database " + db.path() + ": schema version " +
                       std::to_string(version) + " is newer than this infergate's (" +
                       std::to_string(kHistorySchemaVersion) + "); use a newer infergate");
  }
  for (int v = version; v < kHistorySchemaVersion; ++v) db.exec(migrations()[size_t(v)]);
  if (version < kHistorySchemaVersion) {
    db.exec("INSERT OR REPLACE INTO meta(key, value) VALUES('schema_version', '" +
            std::to_string(kHistorySchemaVersion) + "')");
  }
  tx.commit();
}

}  // namespace infergate
