// Mixture-of-experts routing on the CPU: the router's top-k choice per token, and the permutation
// that groups the routed (token, choice) rows by expert so each expert runs one dense batch.
// These are the reference the GPU twins (kernels/cuda/moe_routing.h) are tested against.
#pragma once

#include <cstdint>
#include <vector>

namespace infergate {

// For each token of router_logits [num_tokens, num_experts]: the top_k experts ranked by logit
// descending, ties to the lower id (a stable sort), and their weights, the softmax over ALL
// experts, renormalized over the chosen ones when `normalize` (Mixtral). Outputs
// [num_tokens, top_k] in rank order. Exactly Transformer::route (the same float arithmetic).
// NaN logits give an unspecified ranking and NaN weights. Throws std::invalid_argument unless
// 1 <= top_k <= num_experts.
void moe_topk(const float* router_logits, int64_t num_tokens, int num_experts, int top_k,
              bool normalize, int32_t* topk_ids, float* topk_weights);

// The routed rows (flat index f = token * top_k + j) grouped by expert: expert e owns permuted
// rows [expert_offsets[e], expert_offsets[e + 1]), in increasing f within it (a stable counting
// sort), which is the order moe_ffn gathers rows in.
struct MoePermutation {
  std::vector<int64_t> expert_offsets;  // [num_experts + 1]
  std::vector<int32_t> source_row;      // [num_tokens * top_k]: permuted row -> token
  std::vector<int32_t> permuted_index;  // [num_tokens * top_k]: f -> permuted row
};

// Throws std::out_of_range for an expert id outside [0, num_experts), std::invalid_argument for
// top_k < 1, num_experts < 1, or more than INT32_MAX routed rows.
MoePermutation moe_permute(const int32_t* topk_ids, int64_t num_tokens, int top_k, int num_experts);

// out[p, :] = hidden[source_row[p], :] for p < rows: the experts' input, in permuted order.
void moe_gather_rows(const float* hidden, const int32_t* source_row, int64_t rows, int64_t width,
                     float* out);

// out[t, :] = sum over j (in j order, from zero) of topk_weights[t, j] *
// expert_out[permuted_index[t * top_k + j], :], for expert_out [num_tokens * top_k, hidden] in
// permuted order and out [num_tokens, hidden].
void moe_unpermute(const float* expert_out, const MoePermutation& perm, const float* topk_weights,
                   int64_t num_tokens, int top_k, int64_t hidden, float* out);

}  // namespace infergate
