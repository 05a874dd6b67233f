#include "engine/forward/transformer.h"

#include <algorithm>
#include <cmath>

#include "common/util/nvtx_range.h"
#include "engine/model/rope_scaling.h"

namespace infergate {

OpFfn Transformer::prepare_ffn(const FfnWeights& f) {
  OpFfn p;
  if (!f.gate.defined()) return p;
  p.gate_up = ops_.prepare_linear({&f.gate, &f.up});
  p.down = ops_.prepare_linear({&f.down});
  return p;
}

Transformer::Transformer(const ModelWeights& weights, ForwardOps& ops, const ModelShard* shard)
    : w_(weights), rope_(rope_frequencies(weights.config)), ops_(ops), shard_(shard) {
  for (const LayerWeights& l : weights.layers) {
    Layer p;
    p.qkv = ops_.prepare_linear({&l.wq, &l.wk, &l.wv});
    p.o = ops_.prepare_linear({&l.wo});
    p.ffn = prepare_ffn(l.ffn);
    if (weights.config.is_moe()) {
      p.moe.router = ops_.prepare_router(l.router);
      for (const FfnWeights& e : l.experts) p.moe.experts.push_back(prepare_ffn(e));
      p.moe.shared_expert = prepare_ffn(l.shared_expert);
    }
    p.attn_norm = ops_.vector(l.attn_norm);
    p.ffn_norm = ops_.vector(l.ffn_norm);
    p.bq = ops_.vector(l.bq);
    p.bk = ops_.vector(l.bk);
    p.bv = ops_.vector(l.bv);
    p.q_norm = ops_.vector(l.q_norm);
    p.k_norm = ops_.vector(l.k_norm);
    layers_.push_back(std::move(p));
  }
  lm_head_ = ops_.prepare_linear({&weights.output_weight()});
  final_norm_ = ops_.vector(weights.final_norm);
}

size_t Transformer::weight_bytes() const {
  size_t total = lm_head_->nbytes() + w_.embed.nbytes() + w_.final_norm.nbytes();
  for (size_t i = 0; i < layers_.size(); ++i) {
    const Layer& p = layers_[i];
    const LayerWeights& l = w_.layers[i];
    total += p.qkv->nbytes() + p.o->nbytes() + p.ffn.nbytes() + p.moe.shared_expert.nbytes();
    for (const OpFfn& e : p.moe.experts) total += e.nbytes();
    for (const Tensor* t :
         {&l.attn_norm, &l.ffn_norm, &l.bq, &l.bk, &l.bv, &l.q_norm, &l.k_norm, &l.router}) {
      total += t->defined() ? t->nbytes() : 0;
    }
  }
  return total;
}

void Transformer::grow(int64_t n) {
  const ModelConfig& c = w_.config;
  const auto size = [n](int64_t width) { return size_t(n * width); };
  b_.x = ops_.activation(Activation::kX, size(c.hidden_size));
  b_.h = ops_.activation(Activation::kH, size(c.hidden_size));
  b_.tmp = ops_.activation(Activation::kTmp, size(c.hidden_size));
  b_.qkv = ops_.activation(Activation::kQkv, size(c.q_size() + 2 * c.kv_size()));
  b_.q = ops_.activation(Activation::kQ, size(c.q_size()));
  b_.attn = ops_.activation(Activation::kAttn, size(c.q_size()));
  b_.k = ops_.activation(Activation::kK, size(c.kv_size()));
  b_.v = ops_.activation(Activation::kV, size(c.kv_size()));
}

void Transformer::begin(const BatchInput& batch, KvCacheStorage* cache) {
  batch_ = &batch;
  ops_.begin_step(batch, cache);
  grow(std::max<int64_t>(batch.num_tokens(), int64_t(batch.logits_rows.size())));
}

float* Transformer::hidden(int64_t num_tokens) {
  grow(num_tokens);  // grow-only: a larger bound step keeps its size
  return b_.x;
}

void Transformer::embed() {
  if (shard_ && shard_->tensor_parallel) {
    ops_.embed_part(w_.embed, shard_->vocab_start, b_.x);
    reduce_partial_sums(b_.x, batch_->num_tokens() * w_.config.hidden_size);
  } else {
    ops_.embed(w_.embed, b_.x);
  }
}

void Transformer::run_layers() {
  const ModelConfig& c = w_.config;
  const int64_t n = batch_->num_tokens();
  if (c.num_layers > 0) {
    ops_.rms_norm(b_.x, layers_[0].attn_norm, n, c.hidden_size, c.rms_norm_eps, b_.h);
  }
  for (int l = 0; l < c.num_layers; ++l) {
    attention_block(l, n);
    ffn_block(l, n);
  }
}

void Transformer::logits_to(float* out) {
  const ModelConfig& c = w_.config;
  // Final norm and LM head only for the rows that will be sampled.
  const int64_t rows = int64_t(batch_->logits_rows.size());
  ops_.gather_logits_rows(b_.x, c.hidden_size, b_.tmp);
  ops_.rms_norm(b_.tmp, final_norm_, rows, c.hidden_size, c.rms_norm_eps, b_.h);
  ops_.linear(b_.h, rows, *lm_head_, out);
}

void Transformer::reduce_partial_sums(float* x, int64_t count) {
  if (shard_ && shard_->tensor_parallel) ops_.all_reduce(x, size_t(count));
}

void Transformer::attention_block(int layer, int64_t n) {
  const ModelConfig& c = w_.config;
  const Layer& l = layers_[size_t(layer)];
  ops_.linear(b_.h, n, *l.qkv, b_.qkv);
  ops_.split_qkv(b_.qkv, n, c.q_size(), c.kv_size(), l.bq, l.bk, l.bv, b_.q, b_.k, b_.v);
  if (l.q_norm) {  // Qwen3: each head's q and k normalized before rotation
    ops_.rms_norm(b_.q, l.q_norm, n * c.num_heads, c.head_dim, c.rms_norm_eps, b_.q);
    ops_.rms_norm(b_.k, l.k_norm, n * c.num_kv_heads, c.head_dim, c.rms_norm_eps, b_.k);
  }
  ops_.rope(b_.q, n, c.num_heads, c.head_dim, rope_);
  ops_.rope(b_.k, n, c.num_kv_heads, c.head_dim, rope_);
  ops_.write_kv(layer, b_.k, b_.v, n);
  ops_.attention(layer, b_.q, c.num_heads, 1.0f / std::sqrt(float(c.head_dim)), c.sliding_window,
                 b_.attn);
  ops_.linear(b_.attn, n, *l.o, b_.tmp);
  reduce_partial_sums(b_.tmp, n * c.hidden_size);  // row-parallel o projection
  ops_.add_rms_norm(b_.x, b_.tmp, l.ffn_norm, n, c.hidden_size, c.rms_norm_eps);
}

void Transformer::ffn_block(int layer, int64_t n) {
  const ModelConfig& c = w_.config;
  const Layer& l = layers_[size_t(layer)];
  if (c.is_moe()) {
    ops_.moe_ffn(l.moe, b_.tmp, n, b_.h);
  } else {
    ops_.ffn(l.ffn, b_.tmp, n, b_.h);
  }
  // Row-parallel down projections (dense FFN, or width-split experts) leave partial sums; expert
  // parallelism has already gathered whole results.
  if (!(c.is_moe() && shard_ && shard_->expert_parallel)) {
    reduce_partial_sums(b_.h, n * c.hidden_size);
  }
  if (layer + 1 < c.num_layers) {
    ops_.add_rms_norm(b_.x, b_.h, layers_[size_t(layer + 1)].attn_norm, n, c.hidden_size,
                      c.rms_norm_eps);
  } else {
    ops_.add(b_.x, b_.h, n * c.hidden_size);
  }
}

}  // namespace infergate
