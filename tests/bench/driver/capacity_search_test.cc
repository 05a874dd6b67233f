// The capacity search's procedure (bench/driver/capacity_search.h) over probes whose outcome is
// a known function of the load: it brackets the true capacity within the precision, re-probes
// both ends, follows a re-probe that moves the verdict, and ends every other way with the
// status and verdict a user needs. The real targets' searches run in the CLI tests.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <sstream>

#include "bench/driver/capacity_search.h"

namespace infergate {

namespace {

// A probe of 100 requests at `load` against a target whose SLO ratio at the 95th request is
// load / capacity (so it holds below `capacity`), with TTFT P99 growing with the ratio.
ProbeRun probe_of(double load, double ratio, bool every_request_failed = false) {
  ProbeRun run;
  std::vector<double>& ratios = run.figures.slo_ratios;
  for (int i = 0; i < 100; ++i) ratios.push_back(ratio * (0.5 + 0.5 * i / 94.0));
  RunSummary& s = run.figures.summary;
  s.num_requests = 100;
  s.num_completed = every_request_failed ? 0 : 100;
  s.num_errors = 100 - s.num_completed;
  int64_t good = 0;
  for (double r : ratios) good += r <= 1;
  s.good_fraction = every_request_failed ? 0 : double(good) / 100;
  s.ttft_ms.p99 = 10 * ratio;
  run.figures.slo_ratio = ratios[94];
  run.figures.seconds = 1;
  run.repetition.summary = summary_to_json(s);
  run.repetition.summary["probe_load"] = load;  // which probe became the repetition
  if (every_request_failed) run.repetition.errors = {{"connection refused", 100, "port 1"}};
  return run;
}

CapacitySearchSettings settings(double from, double to, LoadMode mode = LoadMode::kOpen) {
  CapacitySearchSettings s;
  s.spec.from = from;
  s.spec.to = to;
  s.spec.goodput_share = 0.95;
  s.spec.requests_per_probe = 100;
  s.mode = mode;
  s.slo.ttft_ms = 100;
  return s;
}

}  // namespace

TEST_CASE("the search brackets the capacity within the precision and re-probes both ends") {
  std::vector<double> loads;
  const ProbeFunction target = [&](double load, uint64_t, int) {
    loads.push_back(load);
    return probe_of(load, load / 42.0);
  };
  const RepetitionResult r = run_capacity_search(settings(1, 400), target, 3);
  REQUIRE(r.search);
  const SearchRecord& s = *r.search;
  CHECK(s.status == "found");
  CHECK(*s.low <= 42);
  CHECK(*s.high > 42);
  CHECK(*s.high / *s.low - 1 <= 0.05);
  CHECK(*s.capacity == Approx(42).epsilon(0.01));  // the ratio is exactly load / 42
  CHECK(r.summary["capacity_at_slo"] == *s.capacity);
  CHECK(r.summary["probe_load"] == *s.low);  // the summary is the bracket's low end's
  CHECK(r.index == 3);
  CHECK(loads[0] == 1);
  CHECK(loads[1] == 400);
  CHECK(std::count(loads.begin(), loads.end(), *s.low) == 2);  // re-probed
  CHECK(std::count(loads.begin(), loads.end(), *s.high) == 2);
  CHECK(s.probes.back().role == "reprobe");
  CHECK_THAT(s.verdict, Catch::Contains("capacity 42") && Catch::Contains("req/s") &&
                            Catch::Contains("TTFT <= 100 ms for 95% of requests"));
}

TEST_CASE("a re-probe that misses moves the bracket down and the bisection goes on") {
  std::map<double, int> seen;
  // The first probe at a load holds up to 50; from the second on, the target holds up to 40.
  const ProbeFunction target = [&](double load, uint64_t seed, int) {
    const int n = seen[load]++;
    CHECK(seed == uint64_t(7 + n));  // a re-probe draws other arrivals
    return probe_of(load, load / (n == 0 ? 50.0 : 40.0));
  };
  CapacitySearchSettings s = settings(10, 100);
  s.seed = 7;
  const SearchRecord r = *run_capacity_search(s, target, 0).search;
  CHECK(r.status == "found");
  CHECK(*r.high <= 50);
  CHECK(*r.low < 45);
}

TEST_CASE("users are bisected as whole numbers down to adjacent counts") {
  const ProbeFunction target = [](double users, uint64_t, int) {
    CHECK(users == std::floor(users));
    return probe_of(users, users / 13.5);
  };
  const SearchRecord r = *run_capacity_search(settings(1, 64, LoadMode::kClosed), target, 0).search;
  CHECK(r.status == "found");
  CHECK(*r.low == 13);
  CHECK(*r.high == 14);
  CHECK(*r.capacity == 13);
  CHECK(r.unit == "users");
}

TEST_CASE("a search that cannot answer says why, and how far it got") {
  const auto run = [](CapacitySearchSettings s, double capacity, int failing_probe = -1) {
    const ProbeFunction target = [=](double load, uint64_t, int index) {
      return probe_of(load, load / capacity, index == failing_probe);
    };
    return run_capacity_search(s, target, 0);
  };
  SECTION("an SLO no load in range meets: capacity 0") {
    const RepetitionResult r = run(settings(10, 100), 5);
    CHECK(r.search->status == "below_range");
    CHECK(*r.search->capacity == 0);
    CHECK(r.summary["capacity_at_slo"] == 0);
    CHECK_THAT(r.search->verdict,
               Catch::Contains("capacity 0") && Catch::Contains("lowest load searched (10 req/s"));
    const RepetitionResult users = run(settings(1, 8, LoadMode::kClosed), 0.5);
    CHECK_THAT(users.search->verdict, Catch::Contains("no load can meet it"));
  }
  SECTION("a range that does not bracket: no figure, raise `to`") {
    const RepetitionResult r = run(settings(10, 100), 500);
    CHECK(r.search->status == "not_bracketed");
    CHECK_FALSE(r.search->capacity);
    CHECK(r.summary["capacity_at_slo"].is_null());
    CHECK(*r.search->low == 100);
    CHECK_THAT(r.search->verdict,
               Catch::Contains("does not bracket") && Catch::Contains("raise load.search.to"));
  }
  SECTION("a probe whose every request failed ends the search") {
    const RepetitionResult r = run(settings(10, 100), 50, 1);
    CHECK(r.search->status == "probe_failed");
    CHECK(r.search->probes.size() == 2);
    CHECK_FALSE(r.search->capacity);
    CHECK_THAT(r.search->verdict,
               Catch::Contains("every request failed") && Catch::Contains("connection refused"));
  }
  SECTION("max_probes: a bracket wider than asked, said so") {
    CapacitySearchSettings s = settings(1, 1000);
    s.spec.max_probes = 4;
    const RepetitionResult r = run(s, 42);
    CHECK(r.search->status == "max_probes");
    CHECK(r.search->probes.size() == 4);
    CHECK(*r.search->low < 42);
    CHECK(*r.search->high > 42);
    CHECK_THAT(r.search->verdict, Catch::Contains("max_probes ran out"));
  }
  SECTION("stopped: incomplete, the probes so far kept") {
    std::atomic<bool> stop{false};
    CapacitySearchSettings s = settings(1, 400);
    s.stop = &stop;
    const ProbeFunction target = [&](double load, uint64_t, int index) {
      if (index == 2) stop = true;
      return probe_of(load, load / 42);
    };
    const RepetitionResult r = run_capacity_search(s, target, 0);
    CHECK(r.incomplete);
    CHECK(r.search->status == "incomplete");
    CHECK(r.search->probes.size() == 3);
  }
}

TEST_CASE("fixed loads place the capacity between them without bisecting") {
  CapacitySearchSettings s = settings(0, 0);
  s.spec.at = {32, 40, 50};
  std::ostringstream log;
  s.log = &log;
  const ProbeFunction target = [](double load, uint64_t, int) { return probe_of(load, load / 42); };
  const RepetitionResult r = run_capacity_search(s, target, 0);
  CHECK(r.search->status == "fixed");
  CHECK(r.search->probes.size() == 3);
  CHECK(*r.search->capacity == Approx(42).epsilon(0.01));
  CHECK(*r.search->low == 40);
  CHECK(*r.search->high == 50);
  CHECK_THAT(log.str(), Catch::Contains("search: probe 0 (fixed) at 32 req/s: 100% met the SLO"));
  std::ostringstream verdict;
  print_search_verdict(verdict, *r.search);
  CHECK_THAT(verdict.str(), Catch::StartsWith("search: capacity 42") &&
                                Catch::Contains("placed from the loads given (load.search.at)"));
}

}  // namespace infergate
