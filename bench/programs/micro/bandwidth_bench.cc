// BM_ReadBandwidth: a STREAM-like read (sum) of a buffer with both cores. 2048 MiB is 4x the
// last-level cache (DRAM); 200 MiB is the size of the small model's bf16 weights, which this
// machine's 480 MiB L3 can partly hold, so decode may beat the DRAM figure.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <memory>

#include "baselines.h"

namespace infergate::bench {
namespace {

void BM_ReadBandwidth(benchmark::State& state) {
  const size_t bytes = size_t(state.range(0)) << 20;
  const std::shared_ptr<float> buf = huge_page_buffer(bytes);
  ThreadPool& pool = bench_pool();
  const int64_t count = int64_t(bytes / sizeof(float));
  pool.parallel_for(count, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) buf.get()[i] = 1.0f + float(i & 7);
  });
  double best = 0;
  for (auto _ : state) {
    best = std::max(best, read_pass_bytes_per_second(buf.get(), bytes, pool));
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(bytes));
  state.counters["best_GBps"] = best / 1e9;
  state.counters["threads"] = pool.size();
}
BENCHMARK(BM_ReadBandwidth)->Arg(2048)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace infergate::bench
