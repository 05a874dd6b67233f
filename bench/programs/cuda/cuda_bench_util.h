// Timing GPU work inside Google Benchmark: CUDA events around each iteration (a host clock
// would time the launch, not the kernel), reported as manual time, plus the rate counters.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "bench/programs/cuda/roofline.h"
#include "engine/cuda/owned_stream.h"
#include "kernels/cpu/convert.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_buffer.h"

namespace infergate::cuda_bench {

// A stream of the benchmark's own.
using Stream = cuda::OwnedStream;

// Two events bracketing the work queued on one stream.
class EventTimer {
 public:
  EventTimer() {
    INFERGATE_CUDA_CHECK(cudaEventCreate(&start_));
    INFERGATE_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    cudaEventDestroy(start_);
    cudaEventDestroy(stop_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  // Seconds the GPU spends on what `work` queues on `stream`; waits for it.
  template <typename Work>
  double seconds(cudaStream_t stream, Work&& work) {
    INFERGATE_CUDA_CHECK(cudaEventRecord(start_, stream));
    work();
    INFERGATE_CUDA_CHECK(cudaEventRecord(stop_, stream));
    INFERGATE_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0;
    INFERGATE_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return double(ms) * 1e-3;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

// The fastest of `reps` runs, after one warm-up run (first-call costs: module loading, cuBLAS
// heuristics, clocks ramping up).
template <typename Work>
double best_seconds(cudaStream_t stream, int reps, Work&& work) {
  EventTimer timer;
  timer.seconds(stream, work);
  double best = std::numeric_limits<double>::infinity();
  for (int i = 0; i < reps; ++i) best = std::min(best, timer.seconds(stream, work));
  return best;
}

// Times every iteration of a benchmark registered with ->UseManualTime() (the reported time is
// the mean) and returns the fastest, which the rate counters use: the roofline is a best too.
template <typename Work>
double time_iterations(benchmark::State& state, cudaStream_t stream, Work&& work) {
  EventTimer timer;
  timer.seconds(stream, work);  // warm-up
  double best = std::numeric_limits<double>::infinity();
  for (auto _ : state) {
    const double s = timer.seconds(stream, work);
    state.SetIterationTime(s);
    best = std::min(best, s);
  }
  return best;
}

// "TFLOPs" and "of_roofline" (a fraction of the roofline's cuBLAS bf16 GEMM).
inline void set_flops_counters(benchmark::State& state, double flops, double seconds) {
  state.counters["TFLOPs"] = flops / seconds / 1e12;
  state.counters["of_roofline"] = flops / seconds / roofline().bf16_gemm_flops;
}

// "GBps" and "of_roofline" (a fraction of the roofline's device copy).
inline void set_bytes_counters(benchmark::State& state, double bytes, double seconds) {
  state.counters["GBps"] = bytes / seconds / 1e9;
  state.counters["of_roofline"] = bytes / seconds / roofline().copy_bytes_per_second;
}

// `count` bf16 values uniform in [-1, 1] on the device. Not zeros: tensor cores multiplying
// zeros draw less power and clock higher, which would flatter every GEMM.
inline cuda::DeviceBuffer<uint16_t> random_bf16(int64_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<uint16_t> host(static_cast<size_t>(count));
  for (uint16_t& h : host) h = f32_to_bf16(value(rng));
  return cuda::DeviceBuffer<uint16_t>(host);
}

}  // namespace infergate::cuda_bench
