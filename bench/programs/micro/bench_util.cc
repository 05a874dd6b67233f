#include "bench_util.h"

#include <algorithm>
#include <chrono>

#include "baselines.h"
#include "kernels/cpu/convert.h"

namespace infergate::bench {

Tensor random_weight(DType dtype, int64_t rows, int64_t cols, uint32_t seed) {
  Tensor f = Tensor::zeros(DType::kF32, {rows, cols});
  float* p = f.mutable_data<float>();
  uint32_t s = seed * 2654435761u + 1;
  for (int64_t i = 0; i < f.numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    p[i] = float(int32_t(s >> 8) - (1 << 23)) / float(1 << 23);
  }
  return dtype == DType::kF32 ? f : convert_tensor(f, dtype);
}

std::vector<float> random_activations(int64_t count, uint32_t seed) {
  const Tensor t = random_weight(DType::kF32, 1, count, seed);
  return std::vector<float>(t.data<float>(), t.data<float>() + count);
}

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

void IterationTimer::start() { t0_ = now_s(); }

void IterationTimer::stop() {
  const double s = now_s() - t0_;
  total_ += s;
  best_ = std::min(best_, s);
  ++count_;
}

void report_rates(benchmark::State& state, const IterationTimer& timer, double tokens, double bytes,
                  double flops) {
  const Baselines& b = baselines();
  const double per_s = 1.0 / timer.best();
  state.counters["mean_ms"] = timer.mean() * 1e3;
  state.counters["tok_per_s"] = tokens * per_s;
  state.counters["GBps"] = bytes * per_s / 1e9;
  state.counters["GFLOPs"] = flops * per_s / 1e9;
  state.counters["bw_ratio"] = bytes * per_s / b.read_bytes_per_second;
  state.counters["gemm_ratio"] = flops * per_s / b.gemm.flops;
  state.counters["base_GBps"] = b.read_bytes_per_second / 1e9;
  state.counters["base_GFLOPs"] = b.gemm.flops / 1e9;
}

}  // namespace infergate::bench
