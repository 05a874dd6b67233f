// Importing results folders and baseline stores into the history, and the retention policy
// (docs/history.md): what is imported and what passed over, runs pruned by count and age, the
// ends of change points kept, files-only pruning keeping metrics, dry runs changing nothing.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "history/change_point_store.h"
#include "history/history_import.h"
#include "history/history_retention.h"
#include "history/history_store.h"
#include "tests/history/history_fixture.h"
#include "tests/temp_dir.h"

using namespace infergate;
using nlohmann::json;

namespace {

json quickstart(const std::string& commit, const std::string& created_at) {
  return testing::quickstart_results(commit, created_at);
}

void write(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

// Ten runs, one a day from 2026-11-01.
void store_ten_days(HistoryStore& store, const testing::TempDir& dir) {
  for (int day = 1; day <= 10; ++day) {
    char when[32];
    std::snprintf(when, sizeof(when), "2026-11-%02dT12:00:00Z", day);
    const std::string file = dir.file("day" + std::to_string(day) + ".json");
    write(file, quickstart("c" + std::to_string(day), when).dump());
    store.add(file);
  }
}

std::vector<std::string> commits(const HistoryStore& store) {
  std::vector<std::string> out;
  for (const StoredRun& r : store.runs()) out.push_back(r.commit);
  return out;
}

}  // namespace

TEST_CASE("import takes the results files of a folder tree, passes over other JSON, names non-JSON",
          "[history]") {
  testing::TempDir dir;
  const std::string root = dir.file("results");
  write(root + "/m1/quickstart.json", quickstart("b1", "2026-11-02T00:00:00Z").dump());
  write(root + "/m1/history/quickstart/old.json", quickstart("b0", "2026-11-01T00:00:00Z").dump());
  write(root + "/m1/quickstart.noise.json", R"({"schema": "infergate.noise/v1"})");
  write(root + "/m1/history/quickstart/log.jsonl", "{}\n");
  write(root + "/workload.json", R"({"schema": "infergate.workload/v1", "name": "x"})");
  write(root + "/garbage.json", "this is not JSON");
  json corrupt = quickstart("b2", "2026-11-03T00:00:00Z");
  corrupt["points"][0]["repetitions"][0]["summary"]["tpot_ms"]["p50"] = "fast";
  write(root + "/m2/corrupt.json", corrupt.dump());

  HistoryStore store(dir.file("h.sqlite"));
  const ImportReport first = import_results(store, {root});
  CHECK(first.added == 2);
  CHECK(first.already_stored == 0);
  CHECK(first.not_results == 2);        // noise, workload (.jsonl is not looked at)
  REQUIRE(first.not_json.size() == 1);  // garbage: reported by name, not counted as JSON
  CHECK_THAT(first.not_json[0].first, Catch::EndsWith("garbage.json"));
  CHECK_THAT(first.not_json[0].second, Catch::Contains("not JSON at byte"));
  REQUIRE(first.refused.size() == 1);
  CHECK_THAT(first.refused[0].first, Catch::EndsWith("corrupt.json"));
  CHECK_THAT(first.refused[0].second, Catch::Contains("tpot_ms.p50"));
  CHECK(commits(store) == std::vector<std::string>{"b0", "b1"});  // by created_at

  const ImportReport again = import_results(store, {root + "/m1/quickstart.json", root});
  CHECK(again.added == 0);
  CHECK(again.already_stored == 3);
  CHECK_THROWS_WITH(import_results(store, {dir.file("missing")}),
                    Catch::Contains("does not exist"));
}

TEST_CASE("prune by count, by age, and by both", "[history]") {
  RetentionPolicy p;
  p.now = "2026-11-11T12:00:00Z";
  SECTION("the newest 3 of each workload stay") {
    testing::TempDir dir;
    HistoryStore store(dir.file("h.sqlite"));
    store_ten_days(store, dir);
    const size_t per_run = store.metrics().size() / 10;
    p.keep_runs = 3;
    CHECK(prune_history(store, p).runs.size() == 7);
    CHECK(commits(store) == std::vector<std::string>{"c8", "c9", "c10"});
    CHECK(store.metrics().size() == 3 * per_run);  // the pruned runs' metrics went with them
  }
  SECTION("runs older than 5.5 days go") {
    testing::TempDir dir;
    HistoryStore store(dir.file("h.sqlite"));
    store_ten_days(store, dir);
    p.max_age_days = 5.5;
    CHECK(prune_history(store, p).runs.size() == 5);
    CHECK(commits(store).front() == "c6");
  }
  SECTION("both: only runs beyond the count and the age go") {
    testing::TempDir dir;
    HistoryStore store(dir.file("h.sqlite"));
    store_ten_days(store, dir);
    p.keep_runs = 8;
    p.max_age_days = 5.5;
    CHECK(prune_history(store, p).runs.size() == 2);
    CHECK(commits(store).front() == "c3");
  }
}

TEST_CASE("prune keeps change points' runs, can keep metrics, and a dry run changes nothing",
          "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("h.sqlite"));
  store_ten_days(store, dir);
  const std::vector<StoredRun> runs = store.runs();
  ChangePoint cp;
  cp.commit_before = "c2";
  cp.commit_after = "c3";
  cp.run_before = runs[1].id;
  cp.run_after = runs[2].id;
  cp.direction = "worse";
  std::vector<ChangePoint> cps = {cp};
  ChangePointStore(store).record({"quickstart", runs[0].machine_key, "", "tpot_ms.p50"}, cps);

  RetentionPolicy p;
  p.keep_runs = 2;
  p.dry_run = true;
  CHECK(prune_history(store, p).runs.size() == 6);  // 8 beyond the count, 2 ends kept
  CHECK(store.runs().size() == 10);

  p.dry_run = false;
  p.files_only = true;
  const size_t metrics_before = store.metrics().size();
  const PruneOutcome files = prune_history(store, p);
  CHECK(files.runs.size() == 6);
  CHECK(files.bytes > 0);
  CHECK(store.metrics().size() == metrics_before);
  CHECK_THROWS_WITH(store.results_text(runs[0].id), Catch::Contains("was pruned"));
  CHECK_NOTHROW(store.results_text(runs[1].id));  // a change point's end
  CHECK(prune_history(store, p).runs.empty());    // nothing left to drop

  p.files_only = false;
  CHECK(prune_history(store, p).runs.size() == 6);
  CHECK(store.runs().size() == 4);
  CHECK(store.metrics().size() == metrics_before / 10 * 4);

  RetentionPolicy none;
  CHECK_THROWS_WITH(prune_history(store, none), Catch::Contains("--keep-runs N, --max-age-days"));
  none.keep_runs = 0;
  CHECK_THROWS_WITH(prune_history(store, none), Catch::Contains("--keep-runs: allowed: >= 1"));
}
