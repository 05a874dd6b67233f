#include "engine/forward/transformer.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/util/nvtx_range.h"
#include "engine/model/rope_scaling.h"
#include "kernels/cpu/linear.h"
#include "kernels/cpu/moe_routing.h"
#include "kernels/cpu/ops.h"
#include "kernels/cpu/split_qkv.h"

namespace infergate {

namespace {

const float* bias_or_null(const Tensor& bias) {
  return bias.defined() ? bias.data<float>() : nullptr;
}

// acc[j] += weight * x[j]
void axpy(float* acc, float weight, const float* x, int64_t count) {
  for (int64_t j = 0; j < count; ++j) acc[j] += weight * x[j];
}

// Row counts as element counts.
std::vector<size_t> scaled(const std::vector<size_t>& rows, int64_t width) {
  std::vector<size_t> out(rows);
  for (size_t& x : out) x *= size_t(width);
  return out;
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

Transformer::Transformer(const ModelWeights& weights, ThreadPool& pool, const ModelShard* shard,
                         ShardCollectives* comm)
    : w_(weights),
      rope_(rope_frequencies(weights.config)),
      pool_(pool),
      shard_(shard),
      comm_(comm) {
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
    for (const Tensor* t :
         {&l.attn_norm, &l.ffn_norm, &l.bq, &l.bk, &l.bv, &l.q_norm, &l.k_norm, &l.router}) {
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
  embed(batch);
  run_layers(batch, cache);
  return logits(batch);
}

float* Transformer::hidden(int64_t num_tokens) {
  grow(num_tokens);
  return s_.x.data();
}

void Transformer::embed(const BatchInput& batch) {
  const int64_t n = batch.num_tokens();
  grow(n);
  if (shard_ && shard_->tensor_parallel) {
    embedding_lookup_shard(w_.embed, shard_->vocab_start, batch.token_ids.data(), n, s_.x.data());
    reduce_partial_sums(s_.x.data(), n * w_.config.hidden_size);
  } else {
    embedding_lookup(w_.embed, batch.token_ids.data(), n, s_.x.data());
  }
}

void Transformer::run_layers(const BatchInput& batch, KvCacheStorage& cache) {
  const int64_t n = batch.num_tokens();
  grow(n);
  for (int l = 0; l < w_.config.num_layers; ++l) {
    attention_block(l, batch, cache);
    ffn_block(l, n);
  }
}

std::vector<float> Transformer::logits(const BatchInput& batch) {
  const ModelConfig& c = w_.config;
  // Final norm and LM head only for the rows that will be sampled.
  const int64_t rows = int64_t(batch.logits_rows.size());
  grow(std::max<int64_t>(rows, batch.num_tokens()));
  for (int64_t i = 0; i < rows; ++i) {
    rms_norm(s_.x.data() + batch.logits_rows[size_t(i)] * c.hidden_size,
             w_.final_norm.data<float>(), 1, c.hidden_size, c.rms_norm_eps,
             s_.h.data() + i * c.hidden_size);
  }
  std::vector<float> local(size_t(rows) * size_t(c.vocab_size));
  linear(s_.h.data(), rows, lm_head_, local.data(), pool_);
  if (!shard_ || !shard_->tensor_parallel) return local;
  // Vocabulary parallel: every rank's columns, then rows of the full vocabulary (less padding).
  const int64_t part = c.vocab_size, group = shard_->group_size, full = shard_->full_vocab;
  std::vector<float> gathered(local.size() * size_t(group));
  comm_->all_gather(local.data(), local.size(), gathered.data());
  std::vector<float> out(size_t(rows * full));
  for (int64_t g = 0; g < group; ++g) {
    const int64_t width = std::min(part, full - g * part);
    for (int64_t r = 0; width > 0 && r < rows; ++r) {
      std::copy_n(gathered.data() + (g * rows + r) * part, width, out.data() + r * full + g * part);
    }
  }
  return out;
}

void Transformer::reduce_partial_sums(float* x, int64_t count) {
  if (shard_ && shard_->tensor_parallel) comm_->all_reduce(x, size_t(count));
}

void Transformer::attention_block(int layer, const BatchInput& batch, KvCacheStorage& cache) {
  const ModelConfig& c = w_.config;
  const LayerWeights& l = w_.layers[size_t(layer)];
  const int64_t n = batch.num_tokens();
  rms_norm(s_.x.data(), l.attn_norm.data<float>(), n, c.hidden_size, c.rms_norm_eps, s_.h.data());
  linear(s_.h.data(), n, layers_[size_t(layer)].qkv, s_.qkv.data(), pool_);
  split_qkv(s_.qkv.data(), n, c.q_size(), c.kv_size(), bias_or_null(l.bq), bias_or_null(l.bk),
            bias_or_null(l.bv), s_.q.data(), s_.k.data(), s_.v.data());
  if (l.q_norm.defined()) {  // Qwen3: each head's q and k normalized before rotation
    rms_norm(s_.q.data(), l.q_norm.data<float>(), n * c.num_heads, c.head_dim, c.rms_norm_eps,
             s_.q.data());
    rms_norm(s_.k.data(), l.k_norm.data<float>(), n * c.num_kv_heads, c.head_dim, c.rms_norm_eps,
             s_.k.data());
  }
  rope_neox(s_.q.data(), batch.positions.data(), n, c.num_heads, c.head_dim, rope_);
  rope_neox(s_.k.data(), batch.positions.data(), n, c.num_kv_heads, c.head_dim, rope_);
  const KvLayerView kv = cache.layer(layer);
  write_kv(s_.k.data(), s_.v.data(), batch.slot_mapping.data(), n, kv);
  paged_attention(s_.q.data(), batch.sequences.data(), int64_t(batch.sequences.size()), kv,
                  c.num_heads, 1.0f / std::sqrt(float(c.head_dim)), s_.attn.data(), pool_,
                  c.sliding_window);
  linear(s_.attn.data(), n, layers_[size_t(layer)].o, s_.tmp.data(), pool_);
  reduce_partial_sums(s_.tmp.data(), n * c.hidden_size);  // row-parallel o projection
  add_inplace(s_.x.data(), s_.tmp.data(), n * c.hidden_size);
}

void Transformer::ffn_block(int layer, int64_t n) {
  const ModelConfig& c = w_.config;
  const LayerWeights& l = w_.layers[size_t(layer)];
  rms_norm(s_.x.data(), l.ffn_norm.data<float>(), n, c.hidden_size, c.rms_norm_eps, s_.h.data());
  if (c.is_moe() && shard_ && shard_->expert_parallel) {
    moe_ffn_expert_parallel(layer, n);
  } else if (c.is_moe()) {
    moe_ffn(layer, n);
  } else {
    dense_ffn(layers_[size_t(layer)].ffn, s_.h.data(), n, s_.tmp.data());
  }
  // Row-parallel down projections (dense FFN, or width-split experts) leave partial sums; expert
  // parallelism has already gathered whole results.
  if (!(c.is_moe() && shard_ && shard_->expert_parallel)) {
    reduce_partial_sums(s_.tmp.data(), n * c.hidden_size);
  }
  add_inplace(s_.x.data(), s_.tmp.data(), n * c.hidden_size);
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

// The router's top_k choices for each of `n` rows of `h` (kernels/cpu/moe_routing.h: softmax
// over all experts, renormalized over the chosen ones when the model asks), token by token.
std::vector<Transformer::Routed> Transformer::route(int layer, const float* h, int64_t n) {
  const MoeConfig& m = w_.config.moe;
  std::vector<float> router_logits(static_cast<size_t>(n * m.num_experts));
  linear(h, n, w_.layers[size_t(layer)].router, router_logits.data(), pool_);
  std::vector<int32_t> ids(size_t(n * m.top_k));
  std::vector<float> weights(ids.size());
  moe_topk(router_logits.data(), n, m.num_experts, m.top_k, m.normalize_top_k, ids.data(),
           weights.data());
  std::vector<Routed> routed;
  routed.reserve(ids.size());
  for (size_t i = 0; i < ids.size(); ++i) {
    routed.push_back({int64_t(i) / m.top_k, ids[i], weights[i]});
  }
  return routed;
}

// Runs one expert over `rows` rows of `in` gathered by `pick`, into `out` in the same order.
void Transformer::run_expert(const PackedFfn& expert, const float* in,
                             const std::vector<int64_t>& pick, float* out) {
  const int64_t d = w_.config.hidden_size, rows = int64_t(pick.size());
  expert_in_.resize(size_t(rows * d));
  for (int64_t i = 0; i < rows; ++i)
    std::copy_n(in + pick[size_t(i)] * d, d, expert_in_.data() + i * d);
  dense_ffn(expert, expert_in_.data(), rows, out);
}

// Mixtral-style MoE: route every token, then run each expert once over the tokens it got
// (gathered into a dense batch) and scatter-add the weighted results.
void Transformer::moe_ffn(int layer, int64_t n) {
  const PackedLayer& p = layers_[size_t(layer)];
  const int64_t d = w_.config.hidden_size;
  const std::vector<Routed> routed = route(layer, s_.h.data(), n);
  std::vector<std::vector<int64_t>> picks(p.experts.size());  // indices into routed
  for (size_t i = 0; i < routed.size(); ++i) picks[size_t(routed[i].expert)].push_back(int64_t(i));
  std::fill(s_.tmp.begin(), s_.tmp.begin() + n * d, 0.0f);
  std::vector<int64_t> tokens;
  std::vector<float> out;
  for (size_t e = 0; e < picks.size(); ++e) {
    if (picks[e].empty()) continue;
    tokens.clear();
    for (int64_t i : picks[e]) tokens.push_back(routed[size_t(i)].token);
    out.resize(tokens.size() * size_t(d));
    run_expert(p.experts[e], s_.h.data(), tokens, out.data());
    for (size_t i = 0; i < tokens.size(); ++i) {
      const Routed& r = routed[size_t(picks[e][i])];
      axpy(s_.tmp.data() + r.token * d, r.weight, out.data() + i * size_t(d), d);
    }
  }
  add_shared_expert(p, s_.h.data(), n, s_.tmp.data());
}

void Transformer::add_shared_expert(const PackedLayer& p, const float* in, int64_t rows,
                                    float* acc) {
  if (!p.shared_expert.down.defined()) return;
  const int64_t d = w_.config.hidden_size;
  shared_out_.resize(size_t(rows * d));
  dense_ffn(p.shared_expert, in, rows, shared_out_.data());
  add_inplace(acc, shared_out_.data(), rows * d);
}

// Sends each routed (token, expert) row of `h` to the rank holding its expert: `routed` must be
// in destination-rank order. Returns what this rank's experts received.
Transformer::ExpertExchange Transformer::dispatch_to_experts(const std::vector<Routed>& routed,
                                                             const float* h, int64_t per_rank) {
  const int64_t d = w_.config.hidden_size, group = shard_->group_size;
  std::vector<int64_t> send_counts(size_t(group), 0), recv_counts(size_t(group), 0);
  std::vector<float> send_rows(routed.size() * size_t(d));
  std::vector<int32_t> send_experts(routed.size());
  for (size_t i = 0; i < routed.size(); ++i) {
    ++send_counts[size_t(routed[i].expert / per_rank)];
    std::copy_n(h + routed[i].token * d, d, send_rows.data() + i * size_t(d));
    send_experts[i] = int32_t(routed[i].expert % per_rank);  // its index on that rank
  }
  comm_->exchange_counts(send_counts.data(), recv_counts.data());
  ExpertExchange x;
  x.sent.assign(send_counts.begin(), send_counts.end());
  x.received.assign(recv_counts.begin(), recv_counts.end());
  const size_t rows = std::accumulate(x.received.begin(), x.received.end(), size_t(0));
  x.rows.resize(rows * size_t(d));
  x.experts.resize(rows);
  comm_->all_to_all_v(send_experts.data(), x.sent.data(), x.experts.data(), x.received.data());
  const std::vector<size_t> sent_floats = scaled(x.sent, d),
                            received_floats = scaled(x.received, d);
  comm_->all_to_all_v(send_rows.data(), sent_floats.data(), x.rows.data(), received_floats.data());
  return x;
}

// This rank's experts over the rows it received, each result in its row's place.
std::vector<float> Transformer::run_received(const PackedLayer& p, const ExpertExchange& x) {
  const int64_t d = w_.config.hidden_size;
  std::vector<std::vector<int64_t>> picks(p.experts.size());
  for (size_t i = 0; i < x.experts.size(); ++i) picks[size_t(x.experts[i])].push_back(int64_t(i));
  std::vector<float> results(x.rows.size()), out;
  for (size_t e = 0; e < picks.size(); ++e) {
    if (picks[e].empty()) continue;
    out.resize(picks[e].size() * size_t(d));
    run_expert(p.experts[e], x.rows.data(), picks[e], out.data());
    for (size_t i = 0; i < picks[e].size(); ++i) {
      std::copy_n(out.data() + i * size_t(d), d, results.data() + picks[e][i] * d);
    }
  }
  expert_tokens_ += int64_t(x.experts.size());
  return results;
}

// Expert parallelism: this rank routes its slice of the tokens, dispatches them to the experts'
// ranks, runs its own experts over what it received, sends the results back, combines them
// with the router weights, and all-gathers the slices so every rank of the group has the whole
// batch again.
void Transformer::moe_ffn_expert_parallel(int layer, int64_t n) {
  const PackedLayer& p = layers_[size_t(layer)];
  const int64_t d = w_.config.hidden_size, group = shard_->group_size;
  const int64_t per_rank = int64_t(p.experts.size()), chunk = (n + group - 1) / group;
  const int64_t lo = std::min(n, shard_->group_rank * chunk), hi = std::min(n, lo + chunk);
  const float* h = s_.h.data() + lo * d;
  std::vector<Routed> routed = route(layer, h, hi - lo);
  std::stable_sort(routed.begin(), routed.end(), [&](const Routed& a, const Routed& b) {
    return a.expert / per_rank < b.expert / per_rank;  // the all-to-all packs by destination
  });
  const ExpertExchange x = dispatch_to_experts(routed, h, per_rank);
  const std::vector<float> results = run_received(p, x);
  std::vector<float> back(routed.size() * size_t(d));
  const std::vector<size_t> sent_floats = scaled(x.sent, d),
                            received_floats = scaled(x.received, d);
  comm_->all_to_all_v(results.data(), received_floats.data(), back.data(), sent_floats.data());

  std::vector<float> slice(size_t(chunk * d), 0.0f);
  for (size_t i = 0; i < routed.size(); ++i) {
    axpy(slice.data() + routed[i].token * d, routed[i].weight, back.data() + i * size_t(d), d);
  }
  add_shared_expert(p, h, hi - lo, slice.data());
  gathered_.resize(size_t(chunk * d * group));
  comm_->all_gather(slice.data(), slice.size(), gathered_.data());
  std::copy_n(gathered_.data(), n * d, s_.tmp.data());
}

}  // namespace infergate
