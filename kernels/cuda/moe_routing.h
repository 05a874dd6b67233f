// Mixture-of-experts routing on the GPU; twins of kernels/cpu/moe_routing.h: the router's top-k
// per token, the permutation grouping routed rows by expert, the gather of the experts' input
// rows and the weighted scatter back. Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace infergate::cuda {

constexpr int kMoeMaxExperts = 256;  // moe_topk keeps a token's logits in one warp's registers

// topk_ids, topk_weights: [num_tokens, top_k] in rank order (logit descending, ties to the lower
// id), weights the softmax over all experts, renormalized over the chosen when `normalize`. One
// warp per token. Throws std::invalid_argument unless 1 <= num_experts <= kMoeMaxExperts and
// 1 <= top_k <= num_experts. Differs from the CPU: weights within an ulp or two (exp rounded
// from double, the softmax denominator summed in another order); a NaN logit ranks as -inf with
// weight 0 (the CPU's order is unspecified there, its weights NaN); ids are the same.
void moe_topk(const float* router_logits, int64_t num_tokens, int num_experts, int top_k,
              bool normalize, int32_t* topk_ids, float* topk_weights, cudaStream_t stream);

// Bytes of `workspace` moe_permute needs (at least 1). Asks CUB, so it needs a CUDA device.
size_t moe_permute_workspace_bytes(int64_t num_tokens, int top_k, int num_experts);

// The CPU's MoePermutation, exactly: expert_offsets [num_experts + 1], source_row (permuted row
// -> token) and permuted_index ((token * top_k + j) -> permuted row), both [num_tokens * top_k].
// A stable radix sort of the flat indices by expert id. Ids must lie in [0, num_experts): the
// device cannot throw, so callers validate (an id outside gives a wrong permutation). Throws
// std::invalid_argument for top_k < 1, num_experts < 1 or more than INT32_MAX routed rows.
void moe_permute(const int32_t* topk_ids, int64_t num_tokens, int top_k, int num_experts,
                 int64_t* expert_offsets, int32_t* source_row, int32_t* permuted_index,
                 void* workspace, cudaStream_t stream);

// out[p, :] = hidden[source_row[p], :] for p < rows (out: [rows, width]).
void moe_gather_rows(const float* hidden, const int32_t* source_row, int64_t rows, int64_t width,
                     float* out, cudaStream_t stream);

// out[t, :] = sum over j, in j order, of topk_weights[t, j] *
// expert_out[permuted_index[t * top_k + j], :]; each product and sum rounded like the CPU's (no
// fused multiply-add), as the CPU build does.
void moe_unpermute(const float* expert_out, const int32_t* permuted_index,
                   const float* topk_weights, int64_t num_tokens, int top_k, int64_t hidden,
                   float* out, cudaStream_t stream);

}  // namespace infergate::cuda
