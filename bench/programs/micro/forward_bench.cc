// BM_Forward*: the small model's forward step built directly from the kernels the way an
// engine should call them (weights packed at load with prepare_weight, q|k|v and gate|up fused
// into one call each, a bf16 paged KV cache), without scheduler or sampler. It is the figure the
// kernels are optimized against and what BM_Engine* reach once the engine adopts PackedWeight.
#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "baselines.h"
#include "bench_util.h"
#include "engine/model/model_config.h"
#include "kernels/cpu/linear.h"
#include "kernels/cpu/ops.h"
#include "kernels/cpu/paged_attention.h"
#include "model_cost.h"

namespace infergate::bench {
namespace {

constexpr int kBlock = 16;

struct Layer {
  PackedWeight qkv, o, gate_up, down;
  std::vector<float> attn_norm, ffn_norm;
  Tensor k_cache, v_cache;
};

class SmallForward {
 public:
  SmallForward(DType dtype, int max_seqs, int max_context)
      : c_(preset_config("small")), max_context_(max_context) {
    const int64_t d = c_.hidden_size, f = c_.intermediate_size;
    const int64_t blocks = int64_t(max_seqs) * ((max_context + kBlock - 1) / kBlock);
    uint32_t seed = 100;
    for (int l = 0; l < c_.num_layers; ++l) {
      Layer layer;
      const Tensor q = random_weight(dtype, c_.q_size(), d, seed++);
      const Tensor k = random_weight(dtype, c_.kv_size(), d, seed++);
      const Tensor v = random_weight(dtype, c_.kv_size(), d, seed++);
      const Tensor g = random_weight(dtype, f, d, seed++), u = random_weight(dtype, f, d, seed++);
      layer.qkv = prepare_weight({&q, &k, &v});
      layer.o = prepare_weight(random_weight(dtype, d, c_.q_size(), seed++));
      layer.gate_up = prepare_weight({&g, &u});
      layer.down = prepare_weight(random_weight(dtype, d, f, seed++));
      layer.attn_norm.assign(static_cast<size_t>(d), 1.0f);
      layer.ffn_norm.assign(static_cast<size_t>(d), 1.0f);
      layer.k_cache = Tensor::zeros(DType::kBF16, {blocks, kBlock, c_.num_kv_heads, c_.head_dim});
      layer.v_cache = Tensor::zeros(DType::kBF16, {blocks, kBlock, c_.num_kv_heads, c_.head_dim});
      layers_.push_back(std::move(layer));
    }
    head_ = prepare_weight(random_weight(dtype, c_.vocab_size, d, seed++));
    final_norm_.assign(static_cast<size_t>(d), 1.0f);
    for (int64_t b = 0; b < blocks; ++b) block_table_.push_back(int32_t(b));
  }

  const ModelConfig& config() const { return c_; }

  // `seqs` sequences each adding `len` tokens that end at position context - 1; logits for
  // each sequence's last token.
  void forward(int seqs, int len, int context, ThreadPool& pool) {
    const int64_t n = int64_t(seqs) * len, d = c_.hidden_size;
    prepare_batch(seqs, len, context);
    for (Layer& l : layers_) {
      rms_norm(x_.data(), l.attn_norm.data(), n, d, c_.rms_norm_eps, h_.data());
      attention(l, n, pool);
      linear(attn_.data(), n, l.o, tmp_.data(), pool);
      add_inplace(x_.data(), tmp_.data(), n * d);
      rms_norm(x_.data(), l.ffn_norm.data(), n, d, c_.rms_norm_eps, h_.data());
      linear(h_.data(), n, l.gate_up, gate_up_.data(), pool);
      silu_mul_rows(gate_up_.data(), n, c_.intermediate_size, gate_up_.data());
      linear(gate_up_.data(), n, l.down, tmp_.data(), pool);
      add_inplace(x_.data(), tmp_.data(), n * d);
    }
    for (int s = 0; s < seqs; ++s) {
      rms_norm(x_.data() + (int64_t(s) * len + len - 1) * d, final_norm_.data(), 1, d,
               c_.rms_norm_eps, h_.data() + s * d);
    }
    linear(h_.data(), seqs, head_, logits_.data(), pool);
  }

 private:
  void prepare_batch(int seqs, int len, int context) {
    const int64_t n = int64_t(seqs) * len, d = c_.hidden_size;
    const int64_t blocks_per_seq = (max_context_ + kBlock - 1) / kBlock;
    x_ = random_activations(n * d, 5);
    for (auto* v : {&h_, &tmp_, &attn_}) v->resize(static_cast<size_t>(n * d));
    qkv_.resize(static_cast<size_t>(n * (c_.q_size() + 2 * c_.kv_size())));
    q_.resize(static_cast<size_t>(n * c_.q_size()));
    k_.resize(static_cast<size_t>(n * c_.kv_size()));
    v_.resize(k_.size());
    gate_up_.resize(static_cast<size_t>(n * 2 * c_.intermediate_size));
    logits_.resize(static_cast<size_t>(int64_t(seqs) * c_.vocab_size));
    positions_.clear(), slots_.clear(), seqs_.clear();
    for (int s = 0; s < seqs; ++s) {
      const int32_t* table = block_table_.data() + s * blocks_per_seq;
      for (int j = 0; j < len; ++j) {
        const int pos = context - len + j;
        positions_.push_back(pos);
        slots_.push_back(int64_t(table[pos / kBlock]) * kBlock + pos % kBlock);
      }
      seqs_.push_back({int64_t(s) * len, len, context, table});
    }
  }

  void attention(Layer& l, int64_t n, ThreadPool& pool) {
    const int64_t q = c_.q_size(), kv = c_.kv_size(), w = q + 2 * kv;
    linear(h_.data(), n, l.qkv, qkv_.data(), pool);
    for (int64_t r = 0; r < n; ++r) {  // split the fused rows for rope and the cache
      std::copy_n(qkv_.data() + r * w, q, q_.data() + r * q);
      std::copy_n(qkv_.data() + r * w + q, kv, k_.data() + r * kv);
      std::copy_n(qkv_.data() + r * w + q + kv, kv, v_.data() + r * kv);
    }
    rope_neox(q_.data(), positions_.data(), n, c_.num_heads, c_.head_dim, c_.rope_theta);
    rope_neox(k_.data(), positions_.data(), n, c_.num_kv_heads, c_.head_dim, c_.rope_theta);
    const KvLayerView view{l.k_cache.mutable_raw(),
                           l.v_cache.mutable_raw(),
                           DType::kBF16,
                           l.k_cache.dim(0),
                           kBlock,
                           c_.num_kv_heads,
                           c_.head_dim};
    write_kv(k_.data(), v_.data(), slots_.data(), n, view);
    paged_attention(q_.data(), seqs_.data(), int64_t(seqs_.size()), view, c_.num_heads,
                    1.0f / std::sqrt(float(c_.head_dim)), attn_.data(), pool);
  }

  ModelConfig c_;
  int max_context_;
  std::vector<Layer> layers_;
  PackedWeight head_;
  std::vector<float> final_norm_;
  std::vector<int32_t> block_table_;
  std::vector<float> x_, h_, tmp_, attn_, qkv_, q_, k_, v_, gate_up_, logits_;
  std::vector<int32_t> positions_;
  std::vector<int64_t> slots_;
  std::vector<AttentionSequence> seqs_;
};

// Args: sequences, new tokens per sequence, context (positions after the step).
void BM_Forward(benchmark::State& state) {
  const int seqs = int(state.range(0)), len = int(state.range(1)), context = int(state.range(2));
  SmallForward model(DType::kBF16, seqs, context);
  for (int p = len; p < context; p += 512) {  // fill the cache up to the step's context
    model.forward(seqs, std::min(512, context - p), p + std::min(512, context - p), bench_pool());
  }
  IterationTimer timer;
  for (auto _ : state) {
    timer.start();
    model.forward(seqs, len, context, bench_pool());
    timer.stop();
  }
  const StepCost cost = step_cost(model.config(), DType::kBF16, seqs, len, context, seqs);
  report_rates(state, timer, double(seqs) * len, cost.weight_bytes, cost.flops);
}
BENCHMARK(BM_Forward)
    ->Args({1, 1, 256})
    ->Args({32, 1, 256})
    ->Args({1, 512, 512})
    ->ArgNames({"seqs", "len", "context"})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace infergate::bench
