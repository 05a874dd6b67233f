// The results history's store (docs/history.md) on a real SQLite file: round trips of results
// files and their metrics, duplicates, refused files that store nothing, concurrent writers on
// separate connections, and schema versions.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "common/results/results_file.h"
#include "history/history_export.h"
#include "history/history_schema.h"
#include "history/history_store.h"
#include "history/sqlite_database.h"
#include "tests/history/history_fixture.h"
#include "tests/temp_dir.h"

using namespace infergate;
using nlohmann::json;

namespace {

// A real results file (the quickstart baseline the gate tests use) from another commit and time.
json results_doc(const std::string& commit, const std::string& created_at) {
  return testing::quickstart_results(commit, created_at);
}

// Its TPOT P50 in repetition `rep` of point 0.
double tpot_p50(const json& doc, size_t rep) {
  return doc["points"][0]["repetitions"][rep]["summary"]["tpot_ms"]["p50"].get<double>();
}

std::string write(const testing::TempDir& dir, const std::string& name, const json& doc) {
  return testing::write_json(dir, name, doc);
}

}  // namespace

TEST_CASE("stored results come back byte for byte with their summary metrics", "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("history.sqlite"));
  const json doc = results_doc("aaaa", "2026-12-01T00:00:00Z");
  const std::string a = write(dir, "a.json", doc);
  const std::string b = write(dir, "b.json", results_doc("bbbb", "2026-12-02T00:00:00Z"));
  const AddOutcome first = store.add(b);  // added out of order: listed by created_at
  const AddOutcome second = store.add(a);
  CHECK(first.added);
  CHECK(second.added);
  const AddOutcome again = store.add(a);
  CHECK_FALSE(again.added);  // the same file twice is one run
  CHECK(again.id == second.id);
  const std::vector<StoredRun> runs = store.runs("quickstart");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].commit == "aaaa");
  CHECK(runs[1].commit == "bbbb");
  CHECK_FALSE(runs[0].machine_key.empty());
  CHECK(store.runs("other").empty());
  std::ifstream in(a);
  const std::string original((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  CHECK(store.results_text(second.id) == original);
  CHECK(parse_results(json::parse(store.results_text(first.id)), "stored").workload_name ==
        "quickstart");
  int tpot_values = 0;
  for (const StoredMetric& m : store.metrics("quickstart")) {
    if (m.metric != "tpot_ms.p50" || m.point != 0) continue;
    ++tpot_values;
    CHECK(m.value == tpot_p50(doc, size_t(m.repetition)));
  }
  const size_t repetitions = doc["points"][0]["repetitions"].size();
  CHECK(tpot_values == int(2 * repetitions));
  CHECK_THROWS_WITH(store.results_text(999), Catch::Contains("no run 999"));
}

TEST_CASE("a refused results file stores nothing", "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("history.sqlite"));
  json bad = results_doc("aaaa", "2026-12-01T00:00:00Z");
  bad["points"][0]["repetitions"][0]["summary"]["tpot_ms"]["p50"] = "fast";
  CHECK_THROWS_WITH(store.add(write(dir, "bad.json", bad)), Catch::Contains("bad.json"));
  CHECK_THROWS(store.add(dir.file("missing.json")));
  CHECK(store.runs().empty());
  CHECK(store.metrics().empty());
}

TEST_CASE("two writers on their own connections both land, each run whole", "[history]") {
  testing::TempDir dir;
  const std::string db = dir.file("history.sqlite");
  std::vector<std::string> files;
  for (int i = 0; i < 20; ++i) {
    files.push_back(write(
        dir, "r" + std::to_string(i) + ".json",
        results_doc("c" + std::to_string(i), "2026-12-01T00:00:" + std::to_string(10 + i) + "Z")));
  }
  auto writer = [&](int parity) {
    HistoryStore store(db);  // a connection of its own, as a second process has
    for (int i = parity; i < 20; i += 2) store.add(files[size_t(i)]);
  };
  std::thread t0(writer, 0), t1(writer, 1);
  t0.join();
  t1.join();
  HistoryStore store(db);
  CHECK(store.runs().size() == 20);
  std::map<int64_t, int> per_run;
  for (const StoredMetric& m : store.metrics()) ++per_run[m.run_id];
  REQUIRE(per_run.size() == 20);
  for (const auto& [run, count] : per_run) CHECK(count == per_run.begin()->second);
}

TEST_CASE("the schema is versioned and a newer database is refused", "[history]") {
  testing::TempDir dir;
  const std::string db = dir.file("history.sqlite");
  { HistoryStore store(db); }
  SqliteDatabase raw(db);
  CHECK(history_schema_version(raw) == kHistorySchemaVersion);
  raw.exec("UPDATE meta SET value = '99' WHERE key = 'schema_version'");
  CHECK_THROWS_WITH(HistoryStore(db), Catch::Contains("schema version 99 is newer"));
  std::ofstream(dir.file("not-a-db.sqlite")) << "this is not a database, just text";
  CHECK_THROWS_WITH(HistoryStore(dir.file("not-a-db.sqlite")), Catch::Contains("not-a-db.sqlite"));
}

TEST_CASE("a database in a folder not there yet gets its folder, and a file in the way is named",
          "[history]") {
  testing::TempDir dir;
  const std::string db = dir.file("results/nested/history.sqlite");
  HistoryStore(db).add(write(dir, "r.json", results_doc("aaaa", "2026-01-01T00:00:00Z")));
  CHECK(std::filesystem::exists(db));
  std::ofstream(dir.file("blocker")) << "a file, not a folder";
  CHECK_THROWS_WITH(HistoryStore(dir.file("blocker/history.sqlite")),
                    Catch::Contains("cannot create its folder") && Catch::Contains("blocker"));
}

TEST_CASE("export writes runs with metrics as JSON and long-form CSV", "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("history.sqlite"));
  const json doc = results_doc("a,\"b\"", "2026-12-01T00:00:00Z");
  store.add(write(dir, "a.json", doc));
  const json j = history_to_json(store);
  CHECK(j["schema"] == "infergate.history/v1");
  REQUIRE(j["runs"].size() == 1);
  CHECK(j["runs"][0]["commit"] == "a,\"b\"");
  CHECK_FALSE(j["runs"][0]["metrics"].empty());
  const std::string csv = history_to_csv(store);
  CHECK(csv.rfind("run_id,workload,workload_hash,machine_key,commit,created_at,point,sweep,", 0) ==
        0);
  CHECK(csv.find(",\"a,\"\"b\"\"\",") != std::string::npos);  // RFC 4180 quoting
  CHECK(csv.find(",tpot_ms.p50,") != std::string::npos);
}
