// The results history on a real PostgreSQL server (tests/history/postgres_history.sh starts
// one and sets INFERGATE_TEST_POSTGRES_URL): the same store, change points and retention as on
// SQLite, each case in a schema of its own. Hidden from the default run ([.postgres]).
#include <catch2/catch.hpp>
#include <cstdlib>
#include <fstream>
#include <map>
#include <thread>

#include "history/change_point_detection.h"
#include "history/change_point_store.h"
#include "history/history_retention.h"
#include "history/history_schema.h"
#include "history/history_store.h"
#include "history/metric_series.h"
#include "history/postgres_database.h"
#include "tests/history/history_fixture.h"
#include "tests/temp_dir.h"

using namespace infergate;
using nlohmann::json;

namespace {

// A URL whose connections see only a new, empty schema.
std::string fresh_schema() {
  const char* base = std::getenv("INFERGATE_TEST_POSTGRES_URL");
  if (base == nullptr) FAIL("INFERGATE_TEST_POSTGRES_URL is not set (run postgres_history.sh)");
  static int counter = 0;
  const std::string schema = "t" + std::to_string(::getpid()) + "_" + std::to_string(++counter);
  PostgresDatabase(base).exec("CREATE SCHEMA " + schema);
  const std::string url = base;
  return url + (url.find('?') == std::string::npos ? "?" : "&") + "options=-c%20search_path%3D" +
         schema;
}

json quickstart(const std::string& commit, const std::string& created_at) {
  return testing::quickstart_results(commit, created_at);
}

std::string write(const testing::TempDir& dir, const std::string& name, const json& doc) {
  return testing::write_json(dir, name, doc);
}

}  // namespace

TEST_CASE("postgres: stored results come back byte for byte, once, with their metrics",
          "[.postgres]") {
  testing::TempDir dir;
  const std::string url = fresh_schema();
  HistoryStore store(url);
  CHECK(store.database().dialect() == SqlDialect::kPostgres);
  CHECK(history_schema_version(store.database()) == kHistorySchemaVersion);
  const std::string a = write(dir, "a.json", quickstart("aaaa", "2026-12-01T00:00:00Z"));
  const AddOutcome first = store.add(a);
  CHECK(first.added);
  CHECK_FALSE(store.add(a).added);
  std::ifstream in(a);
  const std::string original((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  CHECK(store.results_text(first.id) == original);
  REQUIRE(store.runs().size() == 1);
  CHECK(store.runs()[0].commit == "aaaa");
  HistoryStore sqlite(dir.file("same.sqlite"));
  sqlite.add(a);
  const std::vector<StoredMetric> pg = store.metrics(), lite = sqlite.metrics();
  REQUIRE(pg.size() == lite.size());
  for (size_t i = 0; i < pg.size(); ++i) {
    CHECK(pg[i].metric == lite[i].metric);
    CHECK(pg[i].value == lite[i].value);  // doubles survive the text protocol exactly
  }
  json bad = quickstart("bbbb", "2026-12-02T00:00:00Z");
  bad["points"][0]["repetitions"][0]["summary"]["tpot_ms"]["p50"] = "fast";
  CHECK_THROWS(store.add(write(dir, "bad.json", bad)));
  CHECK(store.runs().size() == 1);
  CHECK_THROWS_WITH(store.results_text(99), Catch::Contains("no run 99"));
  CHECK_THROWS_WITH(
      HistoryStore(std::string(std::getenv("INFERGATE_TEST_POSTGRES_URL")) + "x_no_such_db"),
      Catch::Contains("cannot connect"));
}

TEST_CASE("postgres: writers on their own connections queue, each run whole", "[.postgres]") {
  testing::TempDir dir;
  const std::string url = fresh_schema();
  { HistoryStore create(url); }
  std::vector<std::string> files;
  for (int i = 0; i < 20; ++i) {
    char when[32];
    std::snprintf(when, sizeof(when), "2026-12-01T00:00:%02dZ", i);
    files.push_back(
        write(dir, "r" + std::to_string(i) + ".json", quickstart("c" + std::to_string(i), when)));
  }
  auto writer = [&](int parity) {
    HistoryStore store(url);
    for (int i = parity; i < 20; i += 2) store.add(files[size_t(i)]);
    for (int i = 0; i < 20; ++i) store.add(files[size_t(i)]);  // the other's too: no duplicates
  };
  std::thread t0(writer, 0), t1(writer, 1);
  t0.join();
  t1.join();
  HistoryStore store(url);
  CHECK(store.runs().size() == 20);
  std::map<int64_t, int> per_run;
  for (const StoredMetric& m : store.metrics()) ++per_run[m.run_id];
  REQUIRE(per_run.size() == 20);
  for (const auto& [run, count] : per_run) CHECK(count == per_run.begin()->second);
}

TEST_CASE("postgres: change points are recorded, found again and pruned around", "[.postgres]") {
  testing::TempDir dir;
  HistoryStore store(fresh_schema());
  for (int c = 0; c < 24; ++c) {
    json doc = quickstart("c" + std::to_string(c), "2026-11-01T00:00:00Z");
    char when[32];
    std::snprintf(when, sizeof(when), "2026-11-%02dT00:00:00Z", c + 1);
    doc["created_at"] = when;
    testing::scale_tpot(doc, c >= 12 ? 1.3 : 1.0);
    store.add(write(dir, "r" + std::to_string(c) + ".json", doc));
  }
  SeriesFilter f;
  f.metrics = {"tpot_ms.p50"};
  const std::vector<MetricSeries> series = build_metric_series(store.runs(), store.metrics(), f);
  REQUIRE(series.size() == 1);
  std::vector<ChangePoint> cps = detect_change_points(series[0], {});
  REQUIRE(cps.size() == 1);
  CHECK(cps[0].commit_after == "c12");
  CHECK(cps[0].direction == "worse");
  ChangePointStore points(store);
  points.record(series[0].key, cps);
  points.set_found_commit(cps[0].id, "c12-found");
  std::vector<ChangePoint> again = detect_change_points(series[0], {});
  points.record(series[0].key, again);
  CHECK(again[0].id == cps[0].id);
  CHECK(again[0].found_commit == "c12-found");
  CHECK(points.find(cps[0].id)->change.estimate == Approx(cps[0].change.estimate));

  RetentionPolicy keep;
  keep.keep_runs = 5;
  keep.files_only = true;
  CHECK(prune_history(store, keep).runs.size() == 17);  // 19 beyond 5, the 2 ends kept
  CHECK_THROWS_WITH(store.results_text(store.runs()[0].id), Catch::Contains("was pruned"));
  keep.files_only = false;
  CHECK(prune_history(store, keep).runs.size() == 17);
  CHECK(store.runs().size() == 7);
}

TEST_CASE("postgres: a newer schema is refused", "[.postgres]") {
  const std::string url = fresh_schema();
  { HistoryStore create(url); }
  PostgresDatabase(url).exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  CHECK_THROWS_WITH(HistoryStore(url), Catch::Contains("schema version 99 is newer"));
}

TEST_CASE("postgres: placeholders are numbered outside quotes, passwords kept out of messages",
          "[history]") {
  CHECK(postgres_placeholders("SELECT a FROM t WHERE b = ? AND c = '?' AND d = ?") ==
        "SELECT a FROM t WHERE b = $1 AND c = '?' AND d = $2");
  CHECK(without_password("postgresql://bob:secret@db.example/h") ==
        "postgresql://bob:***@db.example/h");
  CHECK(without_password("postgresql:///infergate?host=/tmp/x") ==
        "postgresql:///infergate?host=/tmp/x");
  CHECK(is_postgres_url("postgres://h/db"));
  CHECK_FALSE(is_postgres_url("results/history.sqlite"));
}
