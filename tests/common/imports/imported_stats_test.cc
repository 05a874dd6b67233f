// Our statistics of imported samples (common/imports/imported_stats.h,
// common/imports/imported_request.h): numpy-linear percentiles, an empty sample as count 0, a
// statistic the tool did not give left out, and chunk gaps turned into per-token ITL gaps.
#include <catch2/catch.hpp>

#include "common/imports/imported_request.h"
#include "common/imports/imported_stats.h"

using namespace infergate;
using nlohmann::json;

TEST_CASE("imported samples get numpy-linear percentiles") {
  const ImportedStats s = stats_of_samples({4, 1, 3, 2});
  CHECK(*s.count == 4);
  CHECK(*s.mean == Approx(2.5));
  CHECK(*s.p50 == Approx(2.5));
  CHECK(*s.p90 == Approx(3.7));  // rank 2.7: 3 + 0.7
  CHECK(*s.min == 1);
  CHECK(*s.max == 4);
  CHECK(stats_to_json(stats_of_samples({})) == json({{"count", 0},
                                                     {"mean", 0.0},
                                                     {"min", 0.0},
                                                     {"p50", 0.0},
                                                     {"p90", 0.0},
                                                     {"p95", 0.0},
                                                     {"p99", 0.0},
                                                     {"max", 0.0}}));
}

TEST_CASE("a statistic a tool did not give is left out and named") {
  ImportedStats s;
  s.mean = 2.0;
  s.p99 = 5.0;
  CHECK(stats_to_json(s.scaled(1000)) == json({{"mean", 2000.0}, {"p99", 5000.0}}));
  CHECK(present_stats(s) == "mean, p99");
  CHECK(missing_stats(s) == "count, min, p50, p90, p95, max");
}

TEST_CASE("chunk gaps of multi-token chunks become per-token ITL gaps of 0") {
  ImportedRun run;
  run.tool = "t";
  ImportedRequest a;  // 5 tokens in 3 chunks: 2 gaps recorded, 2 more tokens shared a chunk
  a.ttft_ms = 100;
  a.e2e_ms = 140;
  a.output_tokens = 5;
  a.gaps_ms = std::vector<double>{20, 20};
  ImportedRequest failed;
  failed.ok = false;
  failed.error = "boom\ntraceback";
  failed.send_lag_ms = 3;
  summarize_requests({a, failed}, run);
  CHECK(*run.distributions["itl_ms"].count == 4);
  CHECK(*run.distributions["itl_ms"].mean == Approx(10));
  CHECK(*run.distributions["tpot_ms"].mean == Approx(10));  // (140 - 100) / 4
  CHECK(*run.distributions["send_lag_ms"].count == 1);
  CHECK(run.summary.num_errors == 1);
  REQUIRE(run.summary.error_classes.size() == 1);
  CHECK(run.summary.error_classes[0].name == "boom");
  CHECK(run.summary.error_classes[0].first_message == "boom\ntraceback");
  REQUIRE(run.notes.size() == 1);
  CHECK_THAT(run.notes[0], Catch::Contains("2 gaps of 0 ms were added"));
}
