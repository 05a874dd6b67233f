// Bootstrap of a relative change: the point estimate by hand, determinism per seed, and the
// coverage of the 95% interval over synthetic experiments whose true change is known.
#include <catch2/catch.hpp>
#include <random>
#include <stdexcept>
#include <vector>

#include "common/stats/bootstrap.h"
#include "common/stats/descriptive.h"

using namespace infergate;
using Catch::Matchers::WithinRel;

namespace {

RepetitionSamples scalars(std::vector<double> values) {
  RepetitionSamples side;
  for (double v : values) side.repetitions.push_back({v});
  return side;
}

// `reps` repetitions of `requests` latencies each: a run-level factor (run-to-run noise) times
// lognormal per-request latencies, all scaled by `scale`.
RepetitionSamples latency_runs(std::mt19937_64& rng, int reps, int requests, double scale) {
  std::normal_distribution<double> run_factor(1.0, 0.03);
  std::lognormal_distribution<double> latency(0.0, 0.3);
  RepetitionSamples side;
  for (int r = 0; r < reps; ++r) {
    const double f = scale * run_factor(rng);
    std::vector<double> samples;
    for (int i = 0; i < requests; ++i) samples.push_back(f * latency(rng));
    side.repetitions.push_back(std::move(samples));
  }
  return side;
}

}  // namespace

TEST_CASE("the estimate is the ratio of the per-repetition means, minus one") {
  const RelativeChange change = bootstrap_relative_change(scalars({100, 110}), scalars({120, 111}),
                                                          SampleStatistic(), BootstrapOptions{});
  CHECK_THAT(change.estimate, WithinRel(115.5 / 105 - 1, 1e-12));
}

TEST_CASE("per-request samples are summarized by the statistic before averaging") {
  RepetitionSamples baseline, candidate;
  baseline.repetitions = {{1, 2, 3, 4, 5}, {3, 3, 3}};  // p50s 3 and 3
  candidate.repetitions = {{4, 1, 5, 2, 3, 6}, {9}};    // p50 3.5; a single value is itself
  const RelativeChange change =
      bootstrap_relative_change(baseline, candidate, percentile_statistic(50), {});
  CHECK_THAT(change.estimate, WithinRel((3.5 + 9) / 2 / 3 - 1, 1e-12));
}

TEST_CASE("percentile and mean statistics follow numpy") {
  std::vector<double> v = {4, 1, 3, 2};
  CHECK_THAT(percentile_statistic(95)(v), WithinRel(3.85, 1e-12));
  CHECK(mean_statistic()(v) == 2.5);
  CHECK_THROWS_AS(percentile_statistic(101), std::invalid_argument);
}

TEST_CASE(
    "a percentile statistic gives exactly the interval of the same percentile computed "
    "on each copied resample") {
  // percentile_statistic() takes a counting shortcut inside the bootstrap; it must not change
  // a single bit. Whole-number latencies make ties, and uneven repetition sizes.
  std::mt19937_64 rng(8);
  std::uniform_int_distribution<int> latency(1, 12);
  RepetitionSamples baseline, candidate;
  for (int r = 0; r < 7; ++r) {
    std::vector<double> b, c;
    for (int i = 0; i < 20 + 3 * r; ++i) b.push_back(latency(rng));
    for (int i = 0; i < 30 - 2 * r; ++i) c.push_back(latency(rng) + 1);
    baseline.repetitions.push_back(b);
    candidate.repetitions.push_back(c);
  }
  candidate.repetitions.push_back({9});  // a scalar among per-request repetitions
  for (const double p : {0.0, 37.5, 50.0, 95.0, 99.0, 100.0}) {
    const SampleStatistic copied = [p](std::vector<double>& s) {
      return percentile_in_place(s, p);
    };
    BootstrapOptions options;
    options.iterations = 500;
    const RelativeChange fast =
        bootstrap_relative_change(baseline, candidate, percentile_statistic(p), options);
    const RelativeChange general = bootstrap_relative_change(baseline, candidate, copied, options);
    CHECK(fast.estimate == general.estimate);
    CHECK(fast.interval.lo == general.interval.lo);
    CHECK(fast.interval.hi == general.interval.hi);
  }
}

TEST_CASE("one scalar repetition per side has a zero-width interval at the estimate") {
  const RelativeChange change =
      bootstrap_relative_change(scalars({200}), scalars({150}), SampleStatistic(), {});
  CHECK(change.estimate == -0.25);
  CHECK(change.interval.lo == -0.25);
  CHECK(change.interval.hi == -0.25);
}

TEST_CASE("the interval brackets the estimate and is the same for the same seed") {
  std::mt19937_64 rng(3);
  const RepetitionSamples baseline = latency_runs(rng, 10, 40, 1.0);
  const RepetitionSamples candidate = latency_runs(rng, 10, 40, 1.05);
  BootstrapOptions options;
  options.seed = 42;
  const RelativeChange a =
      bootstrap_relative_change(baseline, candidate, percentile_statistic(95), options);
  const RelativeChange b =
      bootstrap_relative_change(baseline, candidate, percentile_statistic(95), options);
  CHECK(a.interval.lo < a.estimate);
  CHECK(a.estimate < a.interval.hi);
  CHECK(a.estimate == b.estimate);
  CHECK(a.interval.lo == b.interval.lo);
  CHECK(a.interval.hi == b.interval.hi);

  options.seed = 43;
  const RelativeChange c =
      bootstrap_relative_change(baseline, candidate, percentile_statistic(95), options);
  CHECK(c.estimate == a.estimate);
  CHECK(c.interval.lo != a.interval.lo);
}

TEST_CASE("a wider confidence level gives a wider interval") {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> throughput(100, 5);
  std::vector<double> b, c;
  for (int i = 0; i < 10; ++i) b.push_back(throughput(rng));
  for (int i = 0; i < 10; ++i) c.push_back(throughput(rng));
  BootstrapOptions narrow;
  narrow.confidence = 0.8;
  BootstrapOptions wide;
  wide.confidence = 0.99;
  const Interval n = bootstrap_relative_change(scalars(b), scalars(c), {}, narrow).interval;
  const Interval w = bootstrap_relative_change(scalars(b), scalars(c), {}, wide).interval;
  CHECK(w.lo < n.lo);
  CHECK(n.hi < w.hi);
}

TEST_CASE("the 95% interval of a scalar metric covers the true change in about 95% of runs") {
  // 30 repetitions per side, throughput ~ N(100, 5) against N(104, 5): true change +4%.
  constexpr int kExperiments = 400;
  std::mt19937_64 rng(2024);
  std::normal_distribution<double> baseline_run(100, 5);
  std::normal_distribution<double> candidate_run(104, 5);
  int covered = 0;
  for (int e = 0; e < kExperiments; ++e) {
    std::vector<double> b, c;
    for (int i = 0; i < 30; ++i) b.push_back(baseline_run(rng));
    for (int i = 0; i < 30; ++i) c.push_back(candidate_run(rng));
    BootstrapOptions options;
    options.seed = static_cast<uint64_t>(e) + 1;
    const Interval ci = bootstrap_relative_change(scalars(b), scalars(c), {}, options).interval;
    covered += ci.lo <= 0.04 && 0.04 <= ci.hi;
  }
  const double coverage = double(covered) / kExperiments;
  INFO("coverage " << coverage);
  CHECK(coverage >= 0.90);
  CHECK(coverage <= 0.98);
}

TEST_CASE("the hierarchical p95 interval covers the true change in most runs") {
  // 10 repetitions of 40 requests per side; the candidate is 10% slower in every request, so
  // the expected mean of per-run p95s is 10% higher whatever the p95 of 40 requests is biased by.
  constexpr int kExperiments = 200;
  std::mt19937_64 rng(99);
  int covered = 0;
  for (int e = 0; e < kExperiments; ++e) {
    const RepetitionSamples baseline = latency_runs(rng, 10, 40, 1.0);
    const RepetitionSamples candidate = latency_runs(rng, 10, 40, 1.1);
    BootstrapOptions options;
    options.iterations = 1000;
    options.seed = static_cast<uint64_t>(e) + 1;
    const Interval ci =
        bootstrap_relative_change(baseline, candidate, percentile_statistic(95), options).interval;
    covered += ci.lo <= 0.1 && 0.1 <= ci.hi;
  }
  const double coverage = double(covered) / kExperiments;
  INFO("coverage " << coverage);
  CHECK(coverage >= 0.90);
  CHECK(coverage <= 1.0);
}

TEST_CASE("a zero baseline mean is rejected: the relative change is undefined") {
  CHECK_THROWS_WITH(bootstrap_relative_change(scalars({0, 0}), scalars({1, 2}), {}, {}),
                    Catch::Contains("baseline mean is 0"));
}

TEST_CASE(
    "missing repetitions, empty repetitions, a missing statistic and bad options are rejected") {
  const RepetitionSamples some = scalars({1, 2});
  RepetitionSamples empty_rep;
  empty_rep.repetitions = {{1}, {}};
  RepetitionSamples per_request;
  per_request.repetitions = {{1, 2, 3}};
  CHECK_THROWS_AS(bootstrap_relative_change({}, some, {}, {}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_relative_change(some, {}, {}, {}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_relative_change(some, empty_rep, {}, {}), std::invalid_argument);
  CHECK_THROWS_AS(bootstrap_relative_change(some, per_request, {}, {}), std::invalid_argument);
  BootstrapOptions no_iterations;
  no_iterations.iterations = 0;
  CHECK_THROWS_AS(bootstrap_relative_change(some, some, {}, no_iterations), std::invalid_argument);
  BootstrapOptions certain;
  certain.confidence = 1.0;
  CHECK_THROWS_AS(bootstrap_relative_change(some, some, {}, certain), std::invalid_argument);
}
