// Helpers shared by the kernel benchmarks: random weights and the ratio counters.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "kernels/tensor.h"

namespace infergate::bench {

// A [rows, cols] weight with values in [-1, 1], stored as `dtype`.
Tensor random_weight(DType dtype, int64_t rows, int64_t cols, uint32_t seed);
std::vector<float> random_activations(int64_t count, uint32_t seed);

// Times iterations. The rates use the best one: the baselines are best passes too, and on a
// shared machine slower iterations measure other users' load, not the kernels.
class IterationTimer {
 public:
  void start();
  void stop();
  double best() const { return best_; }
  double mean() const { return count_ ? total_ / double(count_) : 0; }

 private:
  double t0_ = 0, total_ = 0, best_ = 1e30;
  int64_t count_ = 0;
};

// Sets tokens/s, weight bytes/s and FLOP/s of the best iteration and their ratios to this
// process's baselines, plus the mean iteration time (mean_ms).
void report_rates(benchmark::State& state, const IterationTimer& timer, double tokens, double bytes,
                  double flops);

}  // namespace infergate::bench
