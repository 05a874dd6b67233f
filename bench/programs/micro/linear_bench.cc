// BM_Linear: one projection of the small model at decode (m = 1, 32) and prefill (m = 512)
// sizes, per weight dtype, through the row-major Tensor API and through PackedWeight.
// BM_ModelLinears: every projection of one small-model forward step (12 layers with distinct
// weights, so the 200 MB of bf16 weights really stream, plus lm_head), which is what decode
// throughput is bounded by.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <vector>

#include "baselines.h"
#include "bench_util.h"
#include "engine/model/model_config.h"
#include "kernels/cpu/linear.h"
#include "kernels/cpu/packed_weight.h"

namespace infergate::bench {
namespace {

constexpr DType kDtypes[] = {DType::kF32,  DType::kF16,  DType::kBF16, DType::kQ8_0, DType::kQ4_0,
                             DType::kQ4_1, DType::kQ4_K, DType::kW8A8, DType::kFP8};

void BM_Linear(benchmark::State& state) {
  const DType dtype = kDtypes[state.range(0)];
  const int64_t m = state.range(1), n = state.range(2), k = state.range(3);
  const bool packed = state.range(4) != 0;
  const Tensor w = random_weight(dtype, n, k, 1);
  const PackedWeight pw = packed ? prepare_weight(w) : PackedWeight();
  const std::vector<float> x = random_activations(m * k, 2);
  std::vector<float> y(static_cast<size_t>(m * n));
  ThreadPool& pool = bench_pool();
  state.SetLabel(std::string(dtype_name(dtype)) + (packed ? " packed" : " tensor"));
  IterationTimer timer;
  for (auto _ : state) {
    timer.start();
    if (packed) {
      linear(x.data(), m, pw, y.data(), pool);
    } else {
      linear(x.data(), m, w, y.data(), pool);
    }
    timer.stop();
  }
  report_rates(state, timer, double(m), double(w.nbytes()), 2.0 * double(m * n * k));
}

void linear_args(benchmark::internal::Benchmark* b) {
  for (int64_t d : {0, 1, 2, 3, 4, 5, 6, 7, 8}) {
    for (int64_t m : {1, 32, 512}) {
      for (int64_t packed : {0, 1}) {
        b->Args({d, m, 2048, 768, packed});
        b->Args({d, m, 768, 2048, packed});
      }
    }
    b->Args({d, 1, 32000, 768, 0})->Args({d, 1, 32000, 768, 1});
  }
  b->ArgNames({"dtype", "m", "n", "k", "packed"})->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_Linear)->Apply(linear_args);

// The small model's projections, either as the seven row-major tensors per layer or packed
// with q|k|v and gate|up fused (four calls per layer).
struct ModelLinears {
  std::vector<Tensor> tensors;       // per layer: q, k, v, o, gate, up, down; then lm_head
  std::vector<PackedWeight> packed;  // per layer: qkv, o, gate_up, down; then lm_head
  double layer_bytes = 0, head_bytes = 0;
  int64_t layer_macs = 0, head_macs = 0;
};

std::unique_ptr<ModelLinears> build_model(DType dtype, bool packed) {
  const ModelConfig c = preset_config("small");
  auto model = std::make_unique<ModelLinears>();
  const int64_t d = c.hidden_size, q = c.q_size(), kv = c.kv_size(), f = c.intermediate_size;
  uint32_t seed = 10;
  for (int l = 0; l < c.num_layers; ++l) {
    std::vector<Tensor> t = {
        random_weight(dtype, q, d, seed++),  random_weight(dtype, kv, d, seed++),
        random_weight(dtype, kv, d, seed++), random_weight(dtype, d, q, seed++),
        random_weight(dtype, f, d, seed++),  random_weight(dtype, f, d, seed++),
        random_weight(dtype, d, f, seed++)};
    if (l == 0) {
      for (const Tensor& w : t) {
        model->layer_bytes += double(w.nbytes());
        model->layer_macs += w.numel();
      }
    }
    if (packed) {
      model->packed.push_back(prepare_weight({&t[0], &t[1], &t[2]}));
      model->packed.push_back(prepare_weight(t[3]));
      model->packed.push_back(prepare_weight({&t[4], &t[5]}));
      model->packed.push_back(prepare_weight(t[6]));
    } else {
      for (Tensor& w : t) model->tensors.push_back(std::move(w));
    }
  }
  Tensor head = random_weight(dtype, c.vocab_size, d, seed++);
  model->head_bytes = double(head.nbytes());
  model->head_macs = head.numel();
  if (packed) {
    model->packed.push_back(prepare_weight(head));
  } else {
    model->tensors.push_back(std::move(head));
  }
  return model;
}

void BM_ModelLinears(benchmark::State& state) {
  const DType dtype = kDtypes[state.range(0)];
  const int64_t m = state.range(1);
  const bool packed = state.range(2) != 0;
  const int64_t head_rows = m >= 128 ? 1 : m;  // prefill needs the last token's logits only
  const std::unique_ptr<ModelLinears> model = build_model(dtype, packed);
  const std::vector<float> x = random_activations(m * 2048, 3);
  std::vector<float> y(static_cast<size_t>(m * 32000));
  ThreadPool& pool = bench_pool();
  state.SetLabel(std::string(dtype_name(dtype)) + (packed ? " packed" : " tensor"));
  IterationTimer timer;
  for (auto _ : state) {
    timer.start();
    if (packed) {
      for (size_t i = 0; i + 1 < model->packed.size(); ++i) {
        linear(x.data(), m, model->packed[i], y.data(), pool);
      }
      linear(x.data(), head_rows, model->packed.back(), y.data(), pool);
    } else {
      for (size_t i = 0; i + 1 < model->tensors.size(); ++i) {
        linear(x.data(), m, model->tensors[i], y.data(), pool);
      }
      linear(x.data(), head_rows, model->tensors.back(), y.data(), pool);
    }
    timer.stop();
  }
  const int layers = preset_config("small").num_layers;
  const double bytes = model->layer_bytes * layers + model->head_bytes;
  const double flops = 2.0 * (double(m) * double(model->layer_macs) * layers +
                              double(head_rows) * double(model->head_macs));
  report_rates(state, timer, double(m), bytes, flops);
}
BENCHMARK(BM_ModelLinears)
    ->ArgsProduct({{0, 1, 2, 3, 4, 5, 6, 7, 8}, {1, 32, 512}, {0, 1}})
    ->ArgNames({"dtype", "m", "packed"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace infergate::bench
