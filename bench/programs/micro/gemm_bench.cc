// The GEMM baselines: fp32 GEMM rates of the libraries built in (OpenBLAS, and oneDNN when
// found), on a large square problem and on the small model's prefill shapes.
#include <benchmark/benchmark.h>

#include "baselines.h"

namespace infergate::bench {
namespace {

template <double (*Seconds)(int64_t, int64_t, int64_t, int)>
void BM_Sgemm(benchmark::State& state) {
  const int64_t m = state.range(0), n = state.range(1), k = state.range(2);
  double total = 0;
  for (auto _ : state) {
    const double s = Seconds(m, n, k, 1);
    if (s < 0) {
      state.SkipWithError("library not built in");
      return;
    }
    state.SetIterationTime(s);
    total += s;
  }
  state.counters["GFLOPs"] = 2.0 * double(m * n * k) * double(state.iterations()) / total / 1e9;
}

void gemm_args(benchmark::internal::Benchmark* b) {
  b->Args({2048, 2048, 2048})
      ->Args({512, 2048, 768})
      ->Args({512, 768, 2048})
      ->Args({32, 2048, 768})
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

void BM_SgemmOpenBLAS(benchmark::State& state) { BM_Sgemm<openblas_sgemm_seconds>(state); }
void BM_SgemmOneDNN(benchmark::State& state) { BM_Sgemm<onednn_sgemm_seconds>(state); }
BENCHMARK(BM_SgemmOpenBLAS)->Apply(gemm_args);
BENCHMARK(BM_SgemmOneDNN)->Apply(gemm_args);

}  // namespace
}  // namespace infergate::bench
