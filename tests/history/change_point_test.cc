// Change points across a stored history (docs/history.md): a step planted in one metric of a
// real results file's copies, found at its commit with its magnitude; the store keeping ids
// and found commits across detections; the newest commit completing a change; series keys;
// and a schema version 1 database migrated with its runs.
#include <catch2/catch.hpp>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "history/change_point_detection.h"
#include "history/change_point_store.h"
#include "history/history_schema.h"
#include "history/history_store.h"
#include "history/metric_series.h"
#include "history/sqlite_database.h"
#include "tests/history/history_fixture.h"
#include "tests/temp_dir.h"

using namespace infergate;
using nlohmann::json;

namespace {

// `commits` commits of the quickstart results, TPOT in every repetition scaled by 2% noise,
// and by `step` from commit `step_at` on.
void store_history(HistoryStore& store, const testing::TempDir& dir, int commits, int step_at,
                   double step, uint64_t seed = 5) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(1.0, 0.02);
  for (int c = 0; c < commits; ++c) {
    char when[32];
    std::snprintf(when, sizeof(when), "2026-12-01T%02d:%02d:00Z", c / 60, c % 60);
    json doc = testing::quickstart_results("c" + std::to_string(c), when);
    for (size_t r = 0; r < doc["points"][0]["repetitions"].size(); ++r) {
      testing::scale_repetition_tpot(doc, r, noise(rng) * (c >= step_at ? step : 1.0));
    }
    testing::point_tpot_from_repetitions(doc);
    store.add(testing::write_json(dir, "r" + std::to_string(c) + ".json", doc));
  }
}

MetricSeries tpot_series(const HistoryStore& store) {
  SeriesFilter f;
  f.metrics = {"tpot_ms.p50"};
  const std::vector<MetricSeries> s = build_metric_series(store.runs(), store.metrics(), f);
  REQUIRE(s.size() == 1);
  return s[0];
}

}  // namespace

TEST_CASE("a planted 10% TPOT step is found at its commit with its magnitude", "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("h.sqlite"));
  store_history(store, dir, 30, 18, 1.10);
  const MetricSeries series = tpot_series(store);
  CHECK(series.commits.size() == 30);
  CHECK(series.commits[0].values.size() == 3);  // the repetitions
  const std::vector<ChangePoint> cps = detect_change_points(series, {});
  REQUIRE(cps.size() == 1);
  const ChangePoint& c = cps[0];
  CHECK(c.commit_before == "c17");
  CHECK(c.commit_after == "c18");
  CHECK(c.direction == "worse");  // TPOT up
  CHECK(c.p_value <= 0.01);
  CHECK(c.change.estimate == Approx(0.10).margin(0.02));
  CHECK(c.change.interval.lo < 0.10);
  CHECK(c.change.interval.hi > 0.10);
  CHECK(c.change.interval.lo > 0.05);

  // The unchanged metrics (the same values in every commit) have none.
  SeriesFilter all;
  for (const MetricSeries& s : build_metric_series(store.runs(), store.metrics(), all)) {
    if (s.key.metric.rfind("tpot_ms.", 0) == 0) {
      CHECK(detect_change_points(s, {}).size() == 1);  // every TPOT statistic moved
    } else {
      CHECK(detect_change_points(s, {}).empty());
    }
  }
}

TEST_CASE("a change below the minimum effect is not reported", "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("h.sqlite"));
  store_history(store, dir, 30, 15, 0.97);  // 3% better: significant, but below 5%
  DetectSettings s;
  CHECK(detect_change_points(tpot_series(store), s).empty());
  s.min_effect = 0.01;
  const std::vector<ChangePoint> cps = detect_change_points(tpot_series(store), s);
  REQUIRE(cps.size() == 1);
  CHECK(cps[0].direction == "better");
}

TEST_CASE("recorded change points keep their id and found commit across detections", "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("h.sqlite"));
  store_history(store, dir, 24, 12, 1.2);
  const MetricSeries series = tpot_series(store);
  ChangePointStore recorded(store);
  std::vector<ChangePoint> first = detect_change_points(series, {});
  REQUIRE(first.size() == 1);
  recorded.record(series.key, first);
  CHECK(first[0].id > 0);
  recorded.set_found_commit(first[0].id, "c12-found");
  std::vector<ChangePoint> again = detect_change_points(series, {});
  recorded.record(series.key, again);
  CHECK(again[0].id == first[0].id);
  CHECK(again[0].found_commit == "c12-found");
  const std::optional<ChangePoint> back = recorded.find(first[0].id);
  REQUIRE(back);
  CHECK(back->commit_after == "c12");
  CHECK(back->series == series.key);
  CHECK(back->change.estimate == Approx(again[0].change.estimate));
  std::vector<ChangePoint> none;
  recorded.record(series.key, none);  // no longer detected: removed
  CHECK(recorded.all().empty());
  CHECK_THROWS_WITH(recorded.set_found_commit(first[0].id, "x"),
                    Catch::Contains("no change point"));
}

TEST_CASE("the newest commits complete a worsening change point", "[history]") {
  testing::TempDir dir;
  HistoryStore store(dir.file("h.sqlite"));
  // 30 commits before the step: enough for two after it to be significant at alpha 0.005.
  store_history(store, dir, 31, 30, 1.15);  // one slow commit: an outlier, not yet a change
  CHECK(completed_by_newest(tpot_series(store), {}).empty());
  testing::TempDir dir2;
  HistoryStore store2(dir2.file("h.sqlite"));
  store_history(store2, dir2, 32, 30, 1.15);  // the second one completes it
  const std::vector<ChangePoint> done = completed_by_newest(tpot_series(store2), {});
  REQUIRE(done.size() == 1);
  CHECK(done[0].commit_after == "c30");
  testing::TempDir dir3;
  HistoryStore store3(dir3.file("h.sqlite"));
  store_history(store3, dir3, 32, 30, 0.85);  // better is not a failure
  CHECK(completed_by_newest(tpot_series(store3), {}).empty());
}

TEST_CASE("series: a dirty tree is its own point, runs of one commit are one point", "[history]") {
  std::vector<StoredRun> runs(4);
  const char* commits[] = {"a", "a", "a", ""};
  for (int i = 0; i < 4; ++i) {
    runs[size_t(i)].id = i + 1;
    runs[size_t(i)].workload = "w";
    runs[size_t(i)].machine_key = "m";
    runs[size_t(i)].commit = commits[i];
  }
  runs[2].dirty = true;
  std::vector<StoredMetric> metrics;
  for (int i = 0; i < 4; ++i) metrics.push_back({i + 1, 0, "", 0, "tpot_ms.p50", double(i)});
  const std::vector<MetricSeries> s = build_metric_series(runs, metrics, {});
  REQUIRE(s.size() == 1);
  REQUIRE(s[0].commits.size() == 3);
  CHECK(s[0].commits[0].commit == "a");
  CHECK(s[0].commits[0].values == std::vector<double>{0, 1});
  CHECK(s[0].commits[1].commit == "a+dirty");
  CHECK(s[0].commits[2].commit == "run 4");
  CHECK(describe(s[0].key) == "tpot_ms.p50 of w on m");
}

TEST_CASE("a schema version 1 database is migrated with its runs", "[history]") {
  testing::TempDir dir;
  const std::string db = dir.file("v1.sqlite");
  {
    std::ifstream in(std::string(INFERGATE_SOURCE_DIR) + "/tests/history/data/history_v1.sql");
    std::stringstream sql;
    sql << in.rdbuf();
    SqliteDatabase raw(db);
    raw.exec(sql.str());
    CHECK(history_schema_version(raw) == 1);
  }
  HistoryStore store(db);
  CHECK(history_schema_version(store.database()) == 2);
  REQUIRE(store.runs().size() == 1);
  CHECK(store.runs()[0].commit == "c0ffee");
  CHECK(store.metrics().size() == 2);
  CHECK(store.results_text(1) == R"({"written by": "infergate with history schema 1"})");
  CHECK(ChangePointStore(store).all().empty());  // the new table is there
}

namespace {

// A series of `n` commits, 3 repetitions each: value(i) times 1% noise.
MetricSeries synthetic(size_t n, const std::function<double(size_t)>& value, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(1.0, 0.01);
  MetricSeries s;
  s.key = {"w", "m", "", "tpot_ms.p50"};
  for (size_t i = 0; i < n; ++i) {
    SeriesCommit c;
    c.commit = "c" + std::to_string(i);
    c.run_ids = {int64_t(i + 1)};
    for (int r = 0; r < 3; ++r) {
      c.values.push_back(value(i) * noise(rng));
      c.value_runs.push_back(int64_t(i + 1));
    }
    s.commits.push_back(std::move(c));
  }
  return s;
}

}  // namespace

TEST_CASE("drift below the minimum effect is no change point, a step on top of it is found",
          "[history]") {
  // 4% over 40 commits: segments differ by less than the 5% minimum effect.
  const auto slow = [](size_t i) { return 10.0 * (1 + 0.001 * double(i)); };
  CHECK(detect_change_points(synthetic(40, slow, 1), {}).empty());
  // The same drift with a 12% step at commit 25 on top.
  const auto stepped = [&](size_t i) { return slow(i) * (i >= 25 ? 1.12 : 1.0); };
  const std::vector<ChangePoint> cps = detect_change_points(synthetic(40, stepped, 2), {});
  REQUIRE(cps.size() == 1);
  CHECK(cps[0].commit_after == "c25");
  CHECK(cps[0].change.estimate == Approx(0.12).margin(0.03));
  // A 40% drift is real: it is reported as change points, each worse, none of them invented
  // in the other direction.
  const auto fast = [](size_t i) { return 10.0 * (1 + 0.01 * double(i)); };
  const std::vector<ChangePoint> drift = detect_change_points(synthetic(40, fast, 3), {});
  REQUIRE_FALSE(drift.empty());
  for (const ChangePoint& c : drift) CHECK(c.direction == "worse");
}
