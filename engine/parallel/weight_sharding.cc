#include "engine/parallel/weight_sharding.h"

#include <stdexcept>
#include <string>

#include "engine/parallel/tensor_slice.h"

namespace infergate {

namespace {

void require_divides(int64_t parts, int64_t size, const std::string& what) {
  if (size % parts != 0) {
    throw std::invalid_argument("cannot split " + what + " (" + std::to_string(size) + ") over " +
                                std::to_string(parts) + " ranks: it must divide evenly");
  }
}

// The ranges of heads one tensor-parallel rank holds.
struct HeadSplit {
  int q_begin, q_count, kv_begin, kv_count;
};

HeadSplit split_heads(const ModelConfig& c, int group, int rank) {
  require_divides(group, c.num_heads, "num_heads");
  HeadSplit h;
  h.q_count = c.num_heads / group;
  h.q_begin = rank * h.q_count;
  if (c.num_kv_heads >= group) {
    require_divides(group, c.num_kv_heads, "num_kv_heads");
    h.kv_count = c.num_kv_heads / group;
    h.kv_begin = rank * h.kv_count;
  } else {  // fewer KV heads than ranks: each rank keeps the one its query heads read
    require_divides(c.num_kv_heads, group, "tensor_parallel by num_kv_heads");
    h.kv_count = 1;
    h.kv_begin = h.q_begin / (c.num_heads / c.num_kv_heads);
  }
  return h;
}

// Column-parallel gate/up rows and row-parallel down columns of one FFN.
FfnWeights split_ffn(const FfnWeights& f, int group, int rank, const std::string& what) {
  if (!f.gate.defined()) return f;
  const int64_t width = f.gate.dim(0);
  require_divides(group, width, what);
  const int64_t part = width / group, begin = rank * part;
  FfnWeights out;
  out.gate = slice_rows(f.gate, begin, part);
  out.up = slice_rows(f.up, begin, part);
  out.down = slice_cols(f.down, begin, part);
  return out;
}

Tensor maybe_rows(const Tensor& t, int64_t begin, int64_t count) {
  return t.defined() ? slice_rows(t, begin, count) : t;
}

LayerWeights split_attention(const LayerWeights& l, const HeadSplit& h, int head_dim) {
  LayerWeights out = l;
  const int64_t q0 = int64_t(h.q_begin) * head_dim, qn = int64_t(h.q_count) * head_dim;
  const int64_t k0 = int64_t(h.kv_begin) * head_dim, kn = int64_t(h.kv_count) * head_dim;
  out.wq = slice_rows(l.wq, q0, qn);
  out.wk = slice_rows(l.wk, k0, kn);
  out.wv = slice_rows(l.wv, k0, kn);
  out.wo = slice_cols(l.wo, q0, qn);
  out.bq = maybe_rows(l.bq, q0, qn);
  out.bk = maybe_rows(l.bk, k0, kn);
  out.bv = maybe_rows(l.bv, k0, kn);
  return out;
}

void split_ffns(LayerWeights& l, const ParallelLayout& layout, int rank) {
  const int group = layout.group_size;
  if (layout.expert_parallel) {  // whole experts; router and shared expert stay whole
    const int64_t experts = int64_t(l.experts.size()), per_rank = experts / group;
    l.experts = std::vector<FfnWeights>(l.experts.begin() + rank * per_rank,
                                        l.experts.begin() + (rank + 1) * per_rank);
    return;
  }
  l.ffn = split_ffn(l.ffn, group, rank, "intermediate_size");
  for (FfnWeights& e : l.experts) e = split_ffn(e, group, rank, "expert_intermediate_size");
  l.shared_expert = split_ffn(l.shared_expert, group, rank, "shared_expert_intermediate_size");
}

void split_config(ModelConfig& c, const ParallelLayout& layout, const HeadSplit& h) {
  const int group = layout.group_size;
  if (layout.tensor_parallel) {
    c.num_heads = h.q_count;
    c.num_kv_heads = h.kv_count;
    c.vocab_size = (c.vocab_size + group - 1) / group;
  }
  if (layout.tensor_parallel && !layout.expert_parallel) {
    c.intermediate_size /= group;
    c.moe.expert_intermediate_size /= group;
    c.moe.shared_expert_intermediate_size /= group;
  }
}

}  // namespace

RankWeights shard_weights(const ModelWeights& full, const ParallelLayout& layout) {
  const ModelConfig& c = full.config;
  const int group = layout.group_size, rank = layout.group_rank();
  layout.check_stages(c.num_layers);
  if (layout.expert_parallel) {
    if (!c.is_moe())
      throw std::invalid_argument("expert_parallel needs a mixture-of-experts model");
    require_divides(group, c.moe.num_experts, "num_experts");
  }
  const HeadSplit heads = layout.tensor_parallel ? split_heads(c, group, rank)
                                                 : HeadSplit{0, c.num_heads, 0, c.num_kv_heads};
  RankWeights r;
  ModelWeights& w = r.weights;
  w.config = c;
  w.vocab = full.vocab;
  w.final_norm = full.final_norm;
  const int first = layout.first_layer(layout.stage(), c.num_layers);
  const int last = layout.first_layer(layout.stage() + 1, c.num_layers);
  w.config.num_layers = last - first;
  for (int i = first; i < last; ++i) {
    LayerWeights l = layout.tensor_parallel
                         ? split_attention(full.layers[size_t(i)], heads, c.head_dim)
                         : full.layers[size_t(i)];
    if (layout.tensor_parallel || layout.expert_parallel) split_ffns(l, layout, rank);
    w.layers.push_back(std::move(l));
  }
  split_config(w.config, layout, heads);
  const int64_t part = w.config.vocab_size, begin = rank * part;
  const int64_t rows = std::max<int64_t>(0, std::min<int64_t>(part, c.vocab_size - begin));
  w.embed = layout.tensor_parallel ? slice_rows(full.embed, begin, rows, part) : full.embed;
  if (full.lm_head.defined()) {
    w.lm_head = layout.tensor_parallel ? slice_rows(full.lm_head, begin, rows, part) : full.lm_head;
  }

  ModelShard& s = r.shard;
  s.group_size = group;
  s.group_rank = rank;
  s.tensor_parallel = layout.tensor_parallel;
  s.expert_parallel = layout.expert_parallel;
  s.vocab_start = layout.tensor_parallel ? begin : 0;
  s.full_vocab = c.vocab_size;
  if (layout.expert_parallel) {
    const int per_rank = c.moe.num_experts / group;
    for (int e = 0; e < per_rank; ++e) s.local_experts.push_back(rank * per_rank + e);
  }
  return r;
}

}  // namespace infergate
