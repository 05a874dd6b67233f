// The two machine baselines every ratio in docs/performance.md is quoted against, measured in
// the same process as the figure they divide: read bandwidth from memory (both cores, a buffer
// four times the last-level cache) and the fp32 GEMM rate of the best library linked in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "kernels/cpu/cpu_features.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate::bench {

// Bytes per second of one pass reading `bytes` of `buffer` with every thread of the pool.
double read_pass_bytes_per_second(const float* buffer, size_t bytes, ThreadPool& pool);

struct GemmResult {
  std::string library;  // "openblas" | "onednn" | "none"
  double flops = 0;     // FLOP/s
};
// Best fp32 GEMM rate over the libraries built in, for C[m,n] = A[m,k] * B[k,n].
GemmResult best_sgemm_rate(int64_t m, int64_t n, int64_t k);
double openblas_sgemm_seconds(int64_t m, int64_t n, int64_t k, int reps);  // < 0: not built
double onednn_sgemm_seconds(int64_t m, int64_t n, int64_t k, int reps);    // < 0: not built

// Peak FLOP/s of fp32 FMAs at the vector width of `level` (kAvx2: 8 lanes, kAvx512/kAmx: 16;
// kGeneric: 0, not measured) on every thread of the pool: independent accumulator chains, no
// memory traffic, best of a few passes. The roofline a kernel forced to that level is held to.
double fma_peak_flops(IsaLevel level, ThreadPool& pool);

struct Baselines {
  double read_bytes_per_second = 0;
  GemmResult gemm;
};
// Measured once per process (best of a few passes, 2 GiB buffer, 2048^3 GEMM), then cached.
const Baselines& baselines();

// A zero-filled buffer of `bytes` on 2 MiB pages where the OS allows (as PackedWeight uses):
// the baseline must not lose to the kernels on TLB misses alone.
std::shared_ptr<float> huge_page_buffer(size_t bytes);

// The pool the benchmarks share: one thread per core.
ThreadPool& bench_pool();

}  // namespace infergate::bench
