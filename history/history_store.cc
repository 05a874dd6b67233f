#include "history/history_store.h"

#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <ctime>

#include "common/io/input_file.h"
#include "common/results/machine_key.h"
#include "common/results/metric_registry.h"
#include "common/results/results_file.h"
#include "common/util/fnv1a.h"
#include "history/history_schema.h"

namespace infergate {

namespace {

// A results file with per-request records can be large; beyond this it is refused, not read.
constexpr uint64_t kMaxResultsBytes = uint64_t(1) << 30;

std::vector<unsigned char> compressed(const std::string& text) {
  uLongf size = compressBound(uLong(text.size()));
  std::vector<unsigned char> out(size);
  if (compress2(out.data(), &size, reinterpret_cast<const Bytef*>(text.data()), uLong(text.size()),
                6) != Z_OK) {
    throw HistoryError("cannot compress a results file of " + std::to_string(text.size()) +
                       " bytes");
  }
  out.resize(size);
  return out;
}

// zlib's deflate expands at most about 1032 to 1: a recorded size beyond that of the stored
// bytes (or beyond what add accepts) is damage, refused before anything of that size is
// allocated.
constexpr uint64_t kMaxDeflateRatio = 1032;

void check_recorded_size(uint64_t size, size_t compressed_bytes, const std::string& what) {
  const uint64_t possible = std::min(kMaxResultsBytes, kMaxDeflateRatio * compressed_bytes + 64);
  if (size <= possible) return;
  throw HistoryError(what + ": its recorded results_size is " + std::to_string(size) +
                     " bytes, more than " + std::to_string(compressed_bytes) +
                     " compressed bytes can hold (at most " + std::to_string(possible) +
                     "; results files are limited to 1 GiB): the database is damaged");
}

std::string decompressed(const std::vector<unsigned char>& data, uint64_t size) {
  std::string out(size, '\0');
  uLongf got = uLongf(size);
  if (uncompress(reinterpret_cast<Bytef*>(out.data()), &got, data.data(), uLong(data.size())) !=
          Z_OK ||
      got != size) {
    throw HistoryError("a stored results file does not decompress to its recorded " +
                       std::to_string(size) + " bytes (the database is damaged)");
  }
  return out;
}

std::string utc_now() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

constexpr const char* kDistributionStats[] = {"mean", "p50", "p90", "p95", "p99"};

// The summary's values as rows: numbers as they are, flags as 0/1, each distribution's mean
// and percentiles under "name.p50" etc.; nulls (metrics not measured) are left out.
void append_summary(const nlohmann::json& summary, StoredMetric row,
                    std::vector<StoredMetric>& out) {
  for (const MetricInfo& m : run_summary_metrics()) {
    const auto it = summary.find(std::string(m.name));
    if (it == summary.end()) continue;
    if (m.distribution() && it->is_object()) {
      for (const char* stat : kDistributionStats) {
        if (!it->contains(stat) || !(*it)[stat].is_number()) continue;
        row.metric = std::string(m.name) + "." + stat;
        row.value = (*it)[stat].get<double>();
        out.push_back(row);
      }
    } else if (it->is_number() || it->is_boolean()) {
      row.metric = std::string(m.name);
      row.value = it->is_boolean() ? double(it->get<bool>()) : it->get<double>();
      out.push_back(row);
    }
  }
}

std::vector<StoredMetric> summary_rows(const ResultsFile& r) {
  std::vector<StoredMetric> rows;
  for (size_t p = 0; p < r.points.size(); ++p) {
    const PointResult& point = r.points[p];
    for (const RepetitionResult& rep : point.repetitions) {
      StoredMetric row;
      row.point = int(p);
      row.sweep = point.sweep.is_null() ? "" : sweep_point_label(point);
      row.repetition = rep.index;
      append_summary(rep.summary, row, rows);
    }
  }
  return rows;
}

StoredRun run_from(const SqlStatement& s) {
  StoredRun r;
  r.id = s.int64(0);
  r.workload = s.text(1);
  r.workload_hash = s.text(2);
  r.machine_key = s.text(3);
  r.commit = s.text(4);
  r.dirty = s.int64(5) != 0;
  r.build = nlohmann::json::parse(s.text(6), nullptr, false);
  r.created_at = s.text(7);
  r.added_at = s.text(8);
  r.source = s.text(9);
  return r;
}

}  // namespace

std::vector<std::string> storable_metric_names() {
  std::vector<std::string> names;
  for (const MetricInfo& m : run_summary_metrics()) {
    if (!m.distribution()) {
      names.emplace_back(m.name);
      continue;
    }
    for (const char* stat : kDistributionStats) names.push_back(std::string(m.name) + "." + stat);
  }
  return names;
}

HistoryStore::HistoryStore(const std::string& location) : db_(open_sql_database(location)) {
  migrate_history_schema(*db_);
}

AddOutcome HistoryStore::add(const std::string& results_path) {
  const std::string text = read_regular_file(results_path, kMaxResultsBytes);
  const ResultsFile results = load_results(results_path);  // throws ResultsError, naming it
  // As run --history and baseline update: a run stopped early measured less than its
  // workload, and detect would read its shortfall as a change.
  if (results.incomplete) {
    throw ResultsError(results_path +
                       ": marked incomplete (the run was stopped early); the history stores "
                       "whole runs only");
  }
  const std::string content_hash = fnv1a64_hex(text);
  const nlohmann::json& git = results.manifest.value("git", nlohmann::json::object());
  // Unknown (null) for an imported run (infergate import): stored as not dirty.
  const nlohmann::json dirty = git.value("dirty", nlohmann::json(false));
  const std::vector<StoredMetric> rows = summary_rows(results);
  const std::vector<unsigned char> blob = compressed(text);

  SqlTransaction tx(*db_);
  const auto existing = db_->prepare("SELECT id FROM runs WHERE content_hash = ?");
  existing->bind(1, content_hash);
  if (existing->step()) return {existing->int64(0), false};
  const auto insert = db_->prepare(
      "INSERT INTO runs(workload, workload_hash, machine_key, git_commit, git_dirty, "
      "build, created_at, added_at, source, content_hash, results_size, results) "
      "VALUES(?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id");
  insert->bind(1, results.workload_name)
      .bind(2, results.workload_hash)
      .bind(3, machine_key(results))
      .bind(4, git.value("commit", std::string("unknown")))
      .bind(5, int64_t(dirty.is_boolean() && dirty.get<bool>()))
      .bind(6, results.manifest.value("build", nlohmann::json::object()).dump())
      .bind(7, results.created_at)
      .bind(8, utc_now())
      .bind(9, results_path)
      .bind(10, content_hash)
      .bind(11, int64_t(text.size()))
      .bind_blob(12, blob);
  if (!insert->step()) throw HistoryError("storing " + results_path + " returned no run id");
  const int64_t id = insert->int64(0);
  insert->run();
  const auto metric = db_->prepare(
      "INSERT INTO metrics(run_id, point, sweep, repetition, metric, value) VALUES(?,?,?,?,?,?)");
  for (const StoredMetric& m : rows) {
    metric->reset();
    metric->bind(1, id)
        .bind(2, int64_t(m.point))
        .bind(3, m.sweep)
        .bind(4, int64_t(m.repetition))
        .bind(5, m.metric)
        .bind(6, m.value);
    metric->run();
  }
  tx.commit();
  return {id, true};
}

std::vector<StoredRun> HistoryStore::runs(const std::string& workload) const {
  const auto s = db_->prepare(
      "SELECT id, workload, workload_hash, machine_key, git_commit, git_dirty, build, "
      "created_at, added_at, source FROM runs WHERE ? = '' OR workload = ? "
      "ORDER BY created_at, id");
  s->bind(1, workload).bind(2, workload);
  std::vector<StoredRun> out;
  while (s->step()) out.push_back(run_from(*s));
  return out;
}

std::vector<StoredMetric> HistoryStore::metrics(const std::string& workload) const {
  const auto s = db_->prepare(
      "SELECT m.run_id, m.point, m.sweep, m.repetition, m.metric, m.value FROM "
      "metrics m JOIN runs r ON r.id = m.run_id WHERE ? = '' OR r.workload = ? "
      "ORDER BY r.created_at, r.id, m.point, m.repetition, m.metric");
  s->bind(1, workload).bind(2, workload);
  std::vector<StoredMetric> out;
  while (s->step()) {
    out.push_back(
        {s->int64(0), int(s->int64(1)), s->text(2), int(s->int64(3)), s->text(4), s->real(5)});
  }
  return out;
}

std::string HistoryStore::results_text(int64_t id) const {
  const auto s = db_->prepare("SELECT results, results_size FROM runs WHERE id = ?");
  s->bind(1, id);
  if (!s->step()) {
    throw HistoryError("history database " + path() + ": no run " + std::to_string(id));
  }
  if (s->int64(1) == 0) {
    throw HistoryError("history database " + path() + ": run " + std::to_string(id) +
                       "'s results file was pruned (history prune --files-only); its metrics "
                       "remain");
  }
  const std::vector<unsigned char> blob = s->blob(0);
  check_recorded_size(uint64_t(s->int64(1)), blob.size(),
                      "history database " + path() + ": run " + std::to_string(id));
  return decompressed(blob, uint64_t(s->int64(1)));
}

}  // namespace infergate
