// BM_TensorZeros against BM_AlignedAllocMemset, its baseline in the same run: a zeroed, resident
// 256 MiB buffer (the engine's default KV pool) the way Tensor::zeros gets it now
// (kernels/zeroed_memory.h: one mapping, huge pages where allowed, faulted in by the kernel) and
// the way it did before (aligned_alloc, then memset faulting each 4 KiB page).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <cstring>

#include "kernels/tensor.h"

namespace infergate::bench {
namespace {

void BM_AlignedAllocMemset(benchmark::State& state) {
  const size_t bytes = size_t(state.range(0)) << 20;
  for (auto _ : state) {
    void* p = std::aligned_alloc(64, bytes);
    std::memset(p, 0, bytes);
    benchmark::DoNotOptimize(p);
    benchmark::ClobberMemory();
    std::free(p);
  }
}
BENCHMARK(BM_AlignedAllocMemset)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_TensorZeros(benchmark::State& state) {
  const int64_t floats = int64_t(state.range(0)) << 18;  // MiB of fp32
  for (auto _ : state) {
    Tensor t = Tensor::zeros(DType::kF32, {floats});
    benchmark::DoNotOptimize(t.data<float>());
  }
}
BENCHMARK(BM_TensorZeros)->Arg(256)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace infergate::bench
