// Metric math against hand-computed cases (docs/metrics.md). Percentile expectations are what
// numpy.percentile(x, p) gives: rank (n - 1) * p / 100, linear between the neighbours.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "bench/metrics/summarize.h"

using namespace infergate;

namespace {

constexpr int64_t kMs = 1'000'000;   // ns
constexpr int64_t kT0 = 1000 * kMs;  // an arbitrary clock origin (0 means "never")

struct RecordBuilder {
  RequestRecord r;
  RecordBuilder(int64_t scheduled_ms, int64_t sent_ms) {
    r.scheduled_ns = kT0 + scheduled_ms * kMs;
    r.sent_ns = kT0 + sent_ms * kMs;
  }
  // Tokens at the given times; the first is the first token, the last the finish.
  RecordBuilder& tokens(std::vector<int64_t> times_ms) {
    for (int64_t t : times_ms) r.token_times_ns.push_back(kT0 + t * kMs);
    r.first_token_ns = r.token_times_ns.front();
    r.finished_ns = r.token_times_ns.back();
    r.output_tokens = static_cast<int>(times_ms.size());
    return *this;
  }
  RecordBuilder& finished(int64_t ms) {
    r.finished_ns = kT0 + ms * kMs;
    return *this;
  }
  RecordBuilder& input(int n) {
    r.input_tokens = n;
    return *this;
  }
  RecordBuilder& status(RequestStatus s) {
    r.status = s;
    return *this;
  }
  RecordBuilder& warmup() {
    r.warmup = true;
    return *this;
  }
};

// Five measured requests (three ok, one with a single output token, one error, one abort) and
// one warm-up request that would change every number if it were counted.
std::vector<RequestRecord> mixed_run() {
  return {
      RecordBuilder(0, 1).tokens({10, 14, 20}).input(100).r,
      RecordBuilder(5, 5).tokens({25, 35}).input(50).r,
      RecordBuilder(10, 12).tokens({18}).input(10).r,
      RecordBuilder(12, 13).finished(15).input(7).status(RequestStatus::kError).r,
      RecordBuilder(14, 14)
          .tokens({30, 31})
          .finished(40)
          .input(9)
          .status(RequestStatus::kAborted)
          .r,
      RecordBuilder(-100, -100).tokens({2, 3}).input(1000).warmup().r,
  };
}

void check_stat(const StatSummary& s, int64_t count, double mean, double min, double p50,
                double p90, double p95, double p99, double max) {
  CHECK(s.count == count);
  CHECK(s.mean == Approx(mean));
  CHECK(s.min == Approx(min));
  CHECK(s.p50 == Approx(p50));
  CHECK(s.p90 == Approx(p90));
  CHECK(s.p95 == Approx(p95));
  CHECK(s.p99 == Approx(p99));
  CHECK(s.max == Approx(max));
}

}  // namespace

TEST_CASE("percentiles interpolate linearly between closest ranks as numpy does",
          "[bench][metrics]") {
  // numpy.percentile([1, 2, 3, 4], [50, 90, 95, 99]) = [2.5, 3.7, 3.85, 3.97]
  check_stat(summarize_values({4, 2, 1, 3}), 4, 2.5, 1, 2.5, 3.7, 3.85, 3.97, 4);
  // numpy.percentile([15, 20, 35, 40, 50], [50, 90, 95, 99]) = [35, 46, 48, 49.6]
  check_stat(summarize_values({50, 15, 40, 20, 35}), 5, 32, 15, 35, 46, 48, 49.6, 50);
  // numpy.percentile([1, 7, 10], [50, 90, 95, 99]) = [7, 9.4, 9.7, 9.94]
  check_stat(summarize_values({10, 1, 7}), 3, 6, 1, 7, 9.4, 9.7, 9.94, 10);
}

TEST_CASE("a single value is every percentile and no values give an all-zero summary",
          "[bench][metrics]") {
  check_stat(summarize_values({5}), 1, 5, 5, 5, 5, 5, 5, 5);
  check_stat(summarize_values({}), 0, 0, 0, 0, 0, 0, 0, 0);
}

TEST_CASE("counts split measured requests by status and ignore warm-up", "[bench][metrics]") {
  const RunSummary s = summarize_run(mixed_run(), SloSpec{});
  CHECK(s.num_requests == 5);
  CHECK(s.num_completed == 3);
  CHECK(s.num_errors == 1);
  CHECK(s.num_aborted == 1);
}

TEST_CASE("latencies come from ok requests only, anchored at the scheduled time",
          "[bench][metrics]") {
  const RunSummary s = summarize_run(mixed_run(), SloSpec{});
  // TTFT 10, 20, 8 ms; E2E 20, 30, 8 ms.
  check_stat(s.ttft_ms, 3, 38.0 / 3, 8, 10, 18, 19, 19.8, 20);
  check_stat(s.e2e_ms, 3, 58.0 / 3, 8, 20, 28, 29, 29.8, 30);
  // TPOT (20 - 10) / 2 = 5 and (30 - 20) / 1 = 10; the one-token request has none.
  check_stat(s.tpot_ms, 2, 7.5, 5, 7.5, 9.5, 9.75, 9.95, 10);
  // ITL per token gap, pooled: 4, 6 and 10 ms (the aborted request's gap is not counted).
  check_stat(s.itl_ms, 3, 20.0 / 3, 4, 6, 9.2, 9.6, 9.92, 10);
  check_stat(s.input_tokens, 3, 160.0 / 3, 10, 50, 90, 95, 99, 100);
  check_stat(s.output_tokens, 3, 2, 1, 2, 2.8, 2.9, 2.98, 3);
}

TEST_CASE("send lag covers every measured request that was sent", "[bench][metrics]") {
  const RunSummary s = summarize_run(mixed_run(), SloSpec{});
  // 1, 0, 2, 1, 0 ms: errors and aborts too, since they say how punctual the harness was.
  check_stat(s.send_lag_ms, 5, 0.8, 0, 1, 1.6, 1.8, 1.96, 2);
}

TEST_CASE("throughput divides ok work by the measured window", "[bench][metrics]") {
  const RunSummary s = summarize_run(mixed_run(), SloSpec{});
  // Window: earliest measured schedule (0 ms) to the latest measured finish (the abort, 40 ms).
  CHECK(s.duration_s == Approx(0.040));
  CHECK(s.request_throughput_rps == Approx(3 / 0.040));
  CHECK(s.output_throughput_tps == Approx(6 / 0.040));
  CHECK(s.total_throughput_tps == Approx((160 + 6) / 0.040));
}

TEST_CASE("goodput counts ok requests meeting every SLO, and a one-token output meets TPOT",
          "[bench][metrics]") {
  SloSpec slo;
  slo.ttft_ms = 15;
  slo.tpot_ms = 6;
  const RunSummary s = summarize_run(mixed_run(), slo);
  // Good: the first (TTFT 10, TPOT 5) and the one-token request (TTFT 8, no TPOT). The second
  // misses TTFT (20); the error and the abort are bad whatever their timings.
  CHECK(s.goodput_rps == Approx(2 / 0.040));
  CHECK(s.good_fraction == Approx(2.0 / 5));

  slo = SloSpec{};
  slo.e2e_ms = 20;  // a bound is met when equal
  CHECK(summarize_run(mixed_run(), slo).good_fraction == Approx(2.0 / 5));
}

TEST_CASE("with no SLO every ok request is good", "[bench][metrics]") {
  const RunSummary s = summarize_run(mixed_run(), SloSpec{});
  CHECK(s.goodput_rps == Approx(s.request_throughput_rps));
  CHECK(s.good_fraction == Approx(3.0 / 5));
}

TEST_CASE("concurrency is the requests in flight from send to finish", "[bench][metrics]") {
  const RunSummary s = summarize_run(mixed_run(), SloSpec{});
  // In flight: [1,20) [5,35) [12,18) [13,15) [14,40): all five at 14 ms; 83 busy ms in 40.
  CHECK(s.peak_concurrency == 5);
  CHECK(s.mean_concurrency == Approx(83.0 / 40));
}

TEST_CASE("back-to-back requests do not overlap", "[bench][metrics]") {
  const std::vector<RequestRecord> records = {
      RecordBuilder(0, 0).tokens({4, 10}).r,
      RecordBuilder(10, 10).tokens({14, 20}).r,
  };
  const RunSummary s = summarize_run(records, SloSpec{});
  CHECK(s.peak_concurrency == 1);
  CHECK(s.mean_concurrency == Approx(1.0));
}

TEST_CASE("queueing before the send counts in TTFT and E2E", "[bench][metrics]") {
  // Scheduled at 0, sent 50 ms late (coordinated omission would hide those 50 ms).
  const RunSummary s = summarize_run({RecordBuilder(0, 50).tokens({60, 70}).r}, SloSpec{});
  CHECK(s.ttft_ms.mean == Approx(60));
  CHECK(s.e2e_ms.mean == Approx(70));
  CHECK(s.tpot_ms.mean == Approx(10));
  CHECK(s.send_lag_ms.mean == Approx(50));
}

TEST_CASE("a run of only errors has no throughput and no good requests", "[bench][metrics]") {
  const std::vector<RequestRecord> records = {
      RecordBuilder(0, 0).finished(5).status(RequestStatus::kError).r,
      RecordBuilder(2, 2).finished(9).status(RequestStatus::kError).r,
  };
  const RunSummary s = summarize_run(records, SloSpec{});
  CHECK(s.num_errors == 2);
  CHECK(s.duration_s == Approx(0.009));
  CHECK(s.request_throughput_rps == 0);
  CHECK(s.good_fraction == 0);
  CHECK(s.ttft_ms.count == 0);
}

TEST_CASE("no measured requests give an all-zero summary", "[bench][metrics]") {
  const RunSummary s = summarize_run({RecordBuilder(0, 0).tokens({1, 2}).warmup().r}, SloSpec{});
  CHECK(s.num_requests == 0);
  CHECK(s.duration_s == 0);
  CHECK(s.request_throughput_rps == 0);
  CHECK(s.peak_concurrency == 0);
  CHECK(s.mean_concurrency == 0);
}
