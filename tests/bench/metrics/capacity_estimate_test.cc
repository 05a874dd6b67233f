// From probes to a capacity (bench/metrics/capacity_estimate.h, probe_figures.h): the SLO ratio
// at the share agrees exactly with the goodput share, pooled re-probes count their requests
// together, the capacity sits where the ratio crosses 1, and a cliff is a rise faster than the
// load's.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "bench/metrics/capacity_estimate.h"
#include "bench/metrics/probe_figures.h"
#include "bench/metrics/summarize.h"

namespace infergate {

namespace {

RequestRecord request(double ttft_ms, double e2e_ms, int64_t output_tokens, bool ok = true) {
  RequestRecord r;
  r.status = ok ? RequestStatus::kOk : RequestStatus::kError;
  r.scheduled_ns = 1'000'000'000;
  r.sent_ns = r.scheduled_ns;
  r.first_token_ns = r.scheduled_ns + int64_t(ttft_ms * 1e6);
  r.finished_ns = r.scheduled_ns + int64_t(e2e_ms * 1e6);
  r.output_tokens = output_tokens;
  return r;
}

// A probe at `load` whose requests have these SLO ratios (good: ratio <= 1).
SearchProbeRecord probe_at(double load, const std::vector<double>& ratios, double ttft_p99 = 10) {
  SearchProbeRecord p;
  p.load = load;
  p.summary.num_requests = int64_t(ratios.size());
  int64_t good = 0;
  for (double r : ratios) good += r <= 1;
  p.summary.good_fraction = double(good) / double(ratios.size());
  p.summary.ttft_ms.p99 = ttft_p99;
  return p;
}

LoadVerdict verdict(double load, bool meets, std::optional<double> ratio, double ttft_p99 = 0) {
  LoadVerdict v;
  v.load = load;
  v.meets = meets;
  v.slo_ratio = ratio;
  v.ttft_p99_ms = ttft_p99;
  return v;
}

std::vector<double> ratios(int good, double good_ratio, int bad, double bad_ratio) {
  std::vector<double> out(size_t(good), good_ratio);
  out.insert(out.end(), size_t(bad), bad_ratio);
  return out;
}

}  // namespace

TEST_CASE("a request's SLO ratio is its worst latency over its bound, infinite when it failed") {
  SloSpec slo;
  slo.ttft_ms = 100;
  slo.tpot_ms = 10;
  CHECK(request_slo_ratio(request(50, 131, 10), slo) == Approx(0.9));  // TPOT 9 ms over 10
  CHECK(request_slo_ratio(request(50, 230, 10), slo) == Approx(2.0));  // TPOT 20 ms over 10
  CHECK(request_slo_ratio(request(150, 151, 1), slo) == Approx(1.5));  // one token: no TPOT
  CHECK(std::isinf(request_slo_ratio(request(1, 2, 2, false), slo)));
}

TEST_CASE("the SLO ratio at the share is <= 1 exactly when the share of good requests holds") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> ms(1, 300);
  SloSpec slo;
  slo.ttft_ms = 100;
  slo.e2e_ms = 250;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<RequestRecord> records;
    const int n = 1 + trial % 57;
    for (int i = 0; i < n; ++i) {
      const double ttft = ms(rng);
      records.push_back(request(ttft, ttft + ms(rng) / 3, 8, i % 13 != 5));
    }
    records.front().warmup = true;  // not measured
    const double share = 0.5 + 0.49 * (trial % 10) / 9;
    const RunSummary s = summarize_run(records, slo);
    const std::optional<double> ratio =
        slo_ratio_at_share(measured_slo_ratios(records, slo), share);
    INFO("trial " << trial << ", share " << share << ", good " << s.good_fraction);
    CHECK((ratio && *ratio <= 1) == (s.good_fraction >= share - 1e-12));
  }
}

TEST_CASE("re-probes pool their requests, and the bracket is the lowest miss and the hold below") {
  const std::vector<SearchProbeRecord> probes = {
      probe_at(10, ratios(100, 0.2, 0, 0)), probe_at(40, ratios(92, 0.8, 8, 1.3)),
      probe_at(20, ratios(100, 0.5, 0, 0)), probe_at(20, ratios(90, 0.6, 10, 1.2)),
      probe_at(30, ratios(100, 0.7, 0, 0))};
  std::vector<std::vector<double>> per_probe = {ratios(100, 0.2, 0, 0), ratios(92, 0.8, 8, 1.3),
                                                ratios(100, 0.5, 0, 0), ratios(90, 0.6, 10, 1.2),
                                                ratios(100, 0.7, 0, 0)};
  const std::vector<LoadVerdict> loads = pooled_by_load(probes, per_probe, 0.95);
  REQUIRE(loads.size() == 4);
  CHECK(loads[1].load == 20);
  CHECK(loads[1].probes == 2);
  CHECK(loads[1].requests == 200);
  CHECK(loads[1].good_fraction == Approx(0.95));
  CHECK(loads[1].meets);                      // 190 of 200: exactly the share
  CHECK(*loads[1].slo_ratio == Approx(0.6));  // rank 190 of the pooled ratios
  CHECK_FALSE(loads[3].meets);                // 40: 92%
  const LoadBracket b = bracket_of(loads);
  CHECK(*b.low == 30);
  CHECK(*b.high == 40);
  CHECK(b.monotonic);

  std::vector<SearchProbeRecord> noisy = probes;
  noisy.push_back(probe_at(50, ratios(100, 0.9, 0, 0)));  // held above a miss
  per_probe.push_back(ratios(100, 0.9, 0, 0));
  CHECK_FALSE(bracket_of(pooled_by_load(noisy, per_probe, 0.95)).monotonic);
}

TEST_CASE("the capacity is where the SLO ratio crosses 1, in log load over log ratio") {
  const LoadVerdict low = verdict(10, true, 0.5);
  LoadVerdict high = verdict(40, false, 2.0);
  CHECK(capacity_between(low, high, false) == Approx(20));  // the geometric midpoint
  CHECK(capacity_between(low, high, true) == 10);           // users are whole: the hold
  high.slo_ratio.reset();                                   // too many failed to say
  CHECK(capacity_between(low, high, false) == 10);

  const std::vector<LoadVerdict> fixed = {verdict(8, true, 0.5), verdict(10, true, 0.8),
                                          verdict(12.5, false, 1.25)};
  CHECK(*capacity_from_fixed_loads(fixed, false) == Approx(std::sqrt(10 * 12.5)));
  // All held: extrapolated from the top two, but not past 1.5x the highest load.
  const std::vector<LoadVerdict> held = {verdict(8, true, 0.5), verdict(10, true, 0.8)};
  const double beyond = 10 * std::exp(std::log(1 / 0.8) / std::log(0.8 / 0.5) * std::log(10.0 / 8));
  CHECK(*capacity_from_fixed_loads(held, false) == Approx(beyond));
  const std::vector<LoadVerdict> flat = {verdict(8, true, 0.5), verdict(10, true, 0.51)};
  CHECK_FALSE(capacity_from_fixed_loads(flat, false));  // far beyond what was measured
  const std::vector<LoadVerdict> missed = {verdict(8, false, 1.1), verdict(10, false, 1.5)};
  const std::optional<double> below = capacity_from_fixed_loads(missed, false);
  REQUIRE(below);
  CHECK(*below < 8);
  CHECK_FALSE(capacity_from_fixed_loads(missed, true));
}

TEST_CASE("a cliff is TTFT P99 rising cliff_factor times faster than the load") {
  const std::vector<LoadVerdict> loads = {verdict(10, false, std::nullopt, 20),
                                          verdict(60, false, std::nullopt, 280),   // 14x for 6x: no
                                          verdict(66, false, std::nullopt, 1000),  // 3.6x for 1.1x
                                          verdict(70, false, std::nullopt, 1100)};
  const std::vector<SearchCliffRecord> cliffs = find_cliffs(loads, 3);
  REQUIRE(cliffs.size() == 1);
  CHECK(cliffs[0].from_load == 60);
  CHECK(cliffs[0].to_load == 66);
  CHECK(cliffs[0].factor == Approx(1000.0 / 280));
}

}  // namespace infergate
