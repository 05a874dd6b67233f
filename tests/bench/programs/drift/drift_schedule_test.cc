#include <catch2/catch.hpp>

#include "bench/programs/drift/drift_schedule.h"

using namespace infergate;

TEST_CASE(
    "drift schedule: one seed gives one schedule, whose segments cover the duration within "
    "bounds") {
  DriftSettings s;
  s.seed = 42;
  s.max_share = 0.6;
  s.min_segment_s = 2;
  s.max_segment_s = 9;
  s.duration_s = 120;
  const auto a = drift_schedule(s);
  const auto b = drift_schedule(s);
  REQUIRE(a.size() == b.size());
  double end = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].share == b[i].share);
    CHECK(a[i].start_s == Approx(end));
    CHECK(a[i].length_s >= 2);
    CHECK(a[i].length_s <= 9);
    CHECK(a[i].share >= 0);
    CHECK(a[i].share <= 0.6);
    end += a[i].length_s;
  }
  CHECK(end >= 120);
  CHECK(share_at(a, a[1].start_s + 0.5) == a[1].share);
  CHECK(share_at(a, end + 1) == 0);
  s.seed = 43;
  CHECK(drift_schedule(s)[0].share != a[0].share);
}

TEST_CASE("drift schedule: out-of-range settings are refused by name") {
  DriftSettings s;
  s.max_share = 1.5;
  CHECK_THROWS_WITH(drift_schedule(s), Catch::Contains("--max-share"));
  s = DriftSettings{};
  s.min_segment_s = 10;
  s.max_segment_s = 5;
  CHECK_THROWS_WITH(drift_schedule(s), Catch::Contains("--min-segment-s"));
  s = DriftSettings{};
  s.duration_s = 1e9;
  CHECK_THROWS_WITH(drift_schedule(s), Catch::Contains("--duration-s"));
}
