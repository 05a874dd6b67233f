#include "kernels/cpu/moe_routing.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "kernels/cpu/ops.h"

namespace infergate {

namespace {

void check_top_k(int num_experts, int top_k) {
  if (top_k < 1 || top_k > num_experts) {
    throw std::invalid_argument("moe: top_k must be in [1, num_experts = " +
                                std::to_string(num_experts) + "], got " + std::to_string(top_k));
  }
}

}  // namespace

void moe_topk(const float* router_logits, int64_t num_tokens, int num_experts, int top_k,
              bool normalize, int32_t* topk_ids, float* topk_weights) {
  check_top_k(num_experts, top_k);
  const size_t e_count = static_cast<size_t>(num_experts);
  std::vector<float> prob(e_count);
  std::vector<int> order(e_count);
  for (int64_t t = 0; t < num_tokens; ++t) {
    const float* logits = router_logits + t * num_experts;
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return logits[a] > logits[b]; });
    std::copy_n(logits, e_count, prob.begin());
    softmax_inplace(prob.data(), num_experts);
    // The same float sum, in rank order, as Transformer::route.
    float chosen = 0;
    for (int i = 0; i < top_k; ++i) chosen += prob[size_t(order[size_t(i)])];
    for (int i = 0; i < top_k; ++i) {
      const int e = order[size_t(i)];
      topk_ids[t * top_k + i] = e;
      topk_weights[t * top_k + i] = normalize ? prob[size_t(e)] / chosen : prob[size_t(e)];
    }
  }
}

MoePermutation moe_permute(const int32_t* topk_ids, int64_t num_tokens, int top_k,
                           int num_experts) {
  if (top_k < 1 || num_experts < 1) {
    throw std::invalid_argument("moe_permute: top_k and num_experts must be >= 1");
  }
  const int64_t rows = num_tokens * top_k;
  if (rows > INT32_MAX) {
    throw std::invalid_argument("moe_permute: more than INT32_MAX routed rows: " +
                                std::to_string(rows));
  }
  MoePermutation p;
  p.expert_offsets.assign(size_t(num_experts) + 1, 0);
  for (int64_t f = 0; f < rows; ++f) {
    const int32_t e = topk_ids[f];
    if (e < 0 || e >= num_experts) {
      throw std::out_of_range("moe_permute: expert id " + std::to_string(e) + " outside [0, " +
                              std::to_string(num_experts) + ")");
    }
    ++p.expert_offsets[size_t(e) + 1];
  }
  std::partial_sum(p.expert_offsets.begin(), p.expert_offsets.end(), p.expert_offsets.begin());
  // Counting sort: visiting f in increasing order keeps each expert's rows in f order.
  std::vector<int64_t> next(p.expert_offsets.begin(), p.expert_offsets.end() - 1);
  p.source_row.resize(size_t(rows));
  p.permuted_index.resize(size_t(rows));
  for (int64_t f = 0; f < rows; ++f) {
    const int64_t row = next[size_t(topk_ids[f])]++;
    p.source_row[size_t(row)] = int32_t(f / top_k);
    p.permuted_index[size_t(f)] = int32_t(row);
  }
  return p;
}

void moe_gather_rows(const float* hidden, const int32_t* source_row, int64_t rows, int64_t width,
                     float* out) {
  for (int64_t p = 0; p < rows; ++p) {
    std::copy_n(hidden + int64_t(source_row[p]) * width, width, out + p * width);
  }
}

void moe_unpermute(const float* expert_out, const MoePermutation& perm, const float* topk_weights,
                   int64_t num_tokens, int top_k, int64_t hidden, float* out) {
  std::fill_n(out, num_tokens * hidden, 0.0f);
  for (int64_t t = 0; t < num_tokens; ++t) {
    float* o = out + t * hidden;
    for (int j = 0; j < top_k; ++j) {
      const int64_t f = t * top_k + j;
      const float w = topk_weights[f];
      const float* x = expert_out + int64_t(perm.permuted_index[size_t(f)]) * hidden;
      for (int64_t c = 0; c < hidden; ++c) o[c] += w * x[c];
    }
  }
}

}  // namespace infergate
