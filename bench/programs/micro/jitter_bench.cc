// BM_SchedulingJitter: the machine's own floor for a load generator's timing. One thread spins
// reading the steady clock for a second; any gap between two reads is time the OS (or the
// hypervisor) took the core away. The harness cannot send on time more precisely than this,
// so harness-overhead runs are read against it (docs/performance.md, "Harness").
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace infergate::bench {
namespace {

void BM_SchedulingJitter(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  constexpr int64_t kGapNs = 20'000;  // the harness's added-latency budget
  int64_t gaps = 0, longest = 0, reads = 0;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = Clock::now();
    auto prev = start;
    for (auto now = start; now - start < std::chrono::seconds(1); now = Clock::now()) {
      const int64_t gap = std::chrono::duration_cast<std::chrono::nanoseconds>(now - prev).count();
      gaps += gap > kGapNs;
      longest = std::max(longest, gap);
      prev = now;
      ++reads;
    }
    seconds += 1.0;
  }
  state.counters["gaps_over_20us_per_ms"] = double(gaps) / (seconds * 1e3);
  state.counters["longest_gap_us"] = double(longest) / 1e3;
  state.counters["clock_reads"] = double(reads);
}
BENCHMARK(BM_SchedulingJitter)->Iterations(3)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace infergate::bench
