#include "engine/model/transformer.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "engine/core/nvtx_range.h"
#include "kernels/cpu/linear.h"
#include "kernels/cpu/ops.h"

namespace infergate {

namespace {

void add_bias(float* x, const Tensor& bias, int64_t rows, int64_t width) {
  if (!bias.defined()) return;
  const float* b = bias.data<float>();
  for (int64_t r = 0; r < rows; ++r) add_inplace(x + r * width, b, width);
}

void ensure(std::vector<float>& v, int64_t n) {
  if (int64_t(v.size()) < n) v.resize(size_t(n));
}

}  // namespace

Transformer::PackedFfn Transformer::pack_ffn(const FfnWeights& f) {
  PackedFfn p;
  if (!f.gate.defined()) return p;
  p.gate_up = prepare_weight({&f.gate, &f.up});
  p.down = prepare_weight(f.down);
  return p;
}

Transformer::Transformer(const ModelWeights& weights, ThreadPool& pool) : w_(weights), pool_(pool) {
  for (const LayerWeights& l : weights.layers) {
    PackedLayer p;
    p.qkv = prepare_weight({&l.wq, &l.wk, &l.wv});
    p.o = prepare_weight(l.wo);
    p.ffn = pack_ffn(l.ffn);
    for (const FfnWeights& e : l.experts) p.experts.push_back(pack_ffn(e));
    p.shared_expert = pack_ffn(l.shared_expert);
    layers_.push_back(std::move(p));
  }
  lm_head_ = prepare_weight(weights.output_weight());
}

size_t Transformer::weight_bytes() const {
  size_t total = lm_head_.nbytes() + w_.embed.nbytes() + w_.final_norm.nbytes();
  auto ffn_bytes = [](const PackedFfn& f) { return f.gate_up.nbytes() + f.down.nbytes(); };
  for (size_t i = 0; i < layers_.size(); ++i) {
    const PackedLayer& p = layers_[i];
    const LayerWeights& l = w_.layers[i];
    total += p.qkv.nbytes() + p.o.nbytes() + ffn_bytes(p.ffn) + ffn_bytes(p.shared_expert);
    for (const PackedFfn& e : p.experts) total += ffn_bytes(e);
    for (const Tensor* t : {&l.attn_norm, &l.ffn_norm, &l.bq, &l.bk, &l.bv, &l.router}) {
      total += t->defined() ? t->nbytes() : 0;
    }
  }
  return total;
}

void Transformer::grow(int64_t n) {
  const ModelConfig& c = w_.config;
  const int64_t ffn =
      c.is_moe() ? std::max(c.moe.expert_intermediate_size, c.moe.shared_expert_intermediate_size)
                 : c.intermediate_size;
  for (auto* v : {&s_.x, &s_.h, &s_.tmp}) ensure(*v, n * c.hidden_size);
  ensure(s_.qkv, n * (c.q_size() + 2 * c.kv_size()));
  ensure(s_.q, n * c.q_size());
  ensure(s_.attn, n * c.q_size());
  ensure(s_.k, n * c.kv_size());
  ensure(s_.v, n * c.kv_size());
  ensure(s_.gate_up, 2 * n * ffn);
  ensure(s_.act, n * ffn);
}

size_t Transformer::workspace_bytes() const {
  size_t floats = 0;
  for (const auto* v :
       {&s_.x, &s_.h, &s_.qkv, &s_.q, &s_.k, &s_.v, &s_.attn, &s_.gate_up, &s_.act, &s_.tmp}) {
    floats += v->capacity();
  }
  return floats * sizeof(float);
}

std::vector<float> Transformer::forward(const BatchInput& batch, KvCacheStorage& cache) {
  NvtxRange range("forward");
  const ModelConfig& c = w_.config;
  const int64_t n = batch.num_tokens();
  grow(n);
  embedding_lookup(w_.embed, batch.token_ids.data(), n, s_.x.data());
  for (int l = 0; l < c.num_layers; ++l) {
    attention_block(l, batch, cache);
    ffn_block(l, n);
  }
  // Final norm and LM head only for the rows that will be sampled.
  const int64_t rows = int64_t(batch.logits_rows.size());
  for (int64_t i = 0; i < rows; ++i) {
    rms_norm(s_.x.data() + batch.logits_rows[size_t(i)] * c.hidden_size,
             w_.final_norm.data<float>(), 1, c.hidden_size, c.rms_norm_eps,
             s_.h.data() + i * c.hidden_size);
  }
  std::vector<float> logits(size_t(rows) * size_t(c.vocab_size));
  linear(s_.h.data(), rows, lm_head_, logits.data(), pool_);
  return logits;
}

void Transformer::attention_block(int layer, const BatchInput& batch, KvCacheStorage& cache) {
  const ModelConfig& c = w_.config;
  const LayerWeights& l = w_.layers[size_t(layer)];
  const int64_t n = batch.num_tokens();
  rms_norm(s_.x.data(), l.attn_norm.data<float>(), n, c.hidden_size, c.rms_norm_eps, s_.h.data());
  linear(s_.h.data(), n, layers_[size_t(layer)].qkv, s_.qkv.data(), pool_);
  split_qkv(n);
  add_bias(s_.q.data(), l.bq, n, c.q_size());
  add_bias(s_.k.data(), l.bk, n, c.kv_size());
  add_bias(s_.v.data(), l.bv, n, c.kv_size());
  rope_neox(s_.q.data(), batch.positions.data(), n, c.num_heads, c.head_dim, c.rope_theta);
  rope_neox(s_.k.data(), batch.positions.data(), n, c.num_kv_heads, c.head_dim, c.rope_theta);
  const KvLayerView kv = cache.layer(layer);
  write_kv(s_.k.data(), s_.v.data(), batch.slot_mapping.data(), n, kv);
  paged_attention(s_.q.data(), batch.sequences.data(), int64_t(batch.sequences.size()), kv,
                  c.num_heads, 1.0f / std::sqrt(float(c.head_dim)), s_.attn.data(), pool_);
  linear(s_.attn.data(), n, layers_[size_t(layer)].o, s_.tmp.data(), pool_);
  add_inplace(s_.x.data(), s_.tmp.data(), n * c.hidden_size);
}

void Transformer::ffn_block(int layer, int64_t n) {
  const ModelConfig& c = w_.config;
  const LayerWeights& l = w_.layers[size_t(layer)];
  rms_norm(s_.x.data(), l.ffn_norm.data<float>(), n, c.hidden_size, c.rms_norm_eps, s_.h.data());
  if (c.is_moe()) {
    moe_ffn(layer, n);
  } else {
    dense_ffn(layers_[size_t(layer)].ffn, s_.h.data(), n, s_.tmp.data());
  }
  add_inplace(s_.x.data(), s_.tmp.data(), n * c.hidden_size);
}

// Rows of the fused projection are [q | k | v]; attention wants them apart.
void Transformer::split_qkv(int64_t n) {
  const ModelConfig& c = w_.config;
  const int64_t q = c.q_size(), kv = c.kv_size(), width = q + 2 * kv;
  for (int64_t t = 0; t < n; ++t) {
    const float* row = s_.qkv.data() + t * width;
    std::copy_n(row, q, s_.q.data() + t * q);
    std::copy_n(row + q, kv, s_.k.data() + t * kv);
    std::copy_n(row + q + kv, kv, s_.v.data() + t * kv);
  }
}

void Transformer::dense_ffn(const PackedFfn& ffn, const float* in, int64_t rows, float* out) {
  const int64_t inter = ffn.down.cols();
  linear(in, rows, ffn.gate_up, s_.gate_up.data(), pool_);
  // Into a separate buffer, split over threads: in place, the possible aliasing kept the
  // compiler from vectorizing it (it was ~17% of a 32-sequence decode step).
  const float* gu = s_.gate_up.data();
  float* act = s_.act.data();
  pool_.parallel_for(rows, [&](int64_t b, int64_t e) {
    silu_mul_rows(gu + b * 2 * inter, e - b, inter, act + b * inter);
  });
  linear(act, rows, ffn.down, out, pool_);
}

// Mixtral-style MoE: route every token, then run each expert once over the tokens it got
// (gathered into a dense batch) and scatter-add the weighted results.
void Transformer::moe_ffn(int layer, int64_t n) {
  const ModelConfig& c = w_.config;
  const LayerWeights& l = w_.layers[size_t(layer)];
  const PackedLayer& p = layers_[size_t(layer)];
  const MoeConfig& m = c.moe;
  const int64_t d = c.hidden_size;
  std::vector<float> router_logits(static_cast<size_t>(n * m.num_experts));
  linear(s_.h.data(), n, l.router, router_logits.data(), pool_);
  std::vector<std::vector<std::pair<int64_t, float>>> assigned(size_t(m.num_experts));
  std::vector<int> order(static_cast<size_t>(m.num_experts));
  for (int64_t t = 0; t < n; ++t) {
    float* row = router_logits.data() + t * m.num_experts;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return row[a] > row[b]; });
    softmax_inplace(row, m.num_experts);
    float chosen = 0;
    for (int i = 0; i < m.top_k; ++i) chosen += row[order[size_t(i)]];
    for (int i = 0; i < m.top_k; ++i) {
      const int e = order[size_t(i)];
      assigned[size_t(e)].push_back({t, m.normalize_top_k ? row[e] / chosen : row[e]});
    }
  }
  std::fill(s_.tmp.begin(), s_.tmp.begin() + n * d, 0.0f);
  std::vector<float> in, out;
  for (int e = 0; e < m.num_experts; ++e) {
    const auto& tokens = assigned[size_t(e)];
    if (tokens.empty()) continue;
    const int64_t rows = int64_t(tokens.size());
    in.resize(size_t(rows * d));
    out.resize(size_t(rows * d));
    for (int64_t i = 0; i < rows; ++i) {
      std::copy_n(s_.h.data() + tokens[size_t(i)].first * d, d, in.data() + i * d);
    }
    dense_ffn(p.experts[size_t(e)], in.data(), rows, out.data());
    for (int64_t i = 0; i < rows; ++i) {
      float* dst = s_.tmp.data() + tokens[size_t(i)].first * d;
      const float g = tokens[size_t(i)].second;
      for (int64_t j = 0; j < d; ++j) dst[j] += g * out[size_t(i * d + j)];
    }
  }
  if (p.shared_expert.down.defined()) {
    out.resize(size_t(n * d));
    dense_ffn(p.shared_expert, s_.h.data(), n, out.data());
    add_inplace(s_.tmp.data(), out.data(), n * d);
  }
}

}  // namespace infergate
