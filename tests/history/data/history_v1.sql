-- A history database as infergate with schema version 1 wrote it (issue 21's first part):
-- the migration test opens it with the current infergate and expects it migrated, runs kept.
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
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
CREATE INDEX metrics_by_run ON metrics(run_id, metric);
INSERT INTO meta VALUES('schema_version', '1');
INSERT INTO runs VALUES(1, 'quickstart', 'h1', 'x86_64-test', 'c0ffee', 0, '{}',
  '2026-12-01T00:00:00Z', '2026-12-01T00:00:01Z', 'old.json', 'feed', 49, X'789CAB562A2FCA2C2949CD5348AA54B25250CACC4B4B2D4A4F2C495528CF2CC950C8C82C2EC92FAA54284ECE48CD4D543054AA0500BA1D1188');
INSERT INTO metrics VALUES(1, 0, '', 0, 'tpot_ms.p50', 12.5);
INSERT INTO metrics VALUES(1, 0, '', 1, 'tpot_ms.p50', 12.7);
