// Element-wise and row-wise ops of a transformer block, on fp32 activations.
#pragma once

#include <cstdint>

#include "kernels/rope_frequencies.h"
#include "kernels/tensor.h"

namespace infergate {

// out[r, :] = x[r, :] / rms(x[r, :]) * weight  (weight: [dim] fp32). out may alias x.
void rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim, float eps,
              float* out);
// Rotary embedding in the "rotate half" (GPT-NeoX / Hugging Face) layout: within each head,
// element i pairs with i + head_dim/2. x: [rows, num_heads * head_dim], rotated in place by
// freq (head_dim / 2 frequencies, else std::invalid_argument).
void rope_neox(float* x, const int32_t* positions, int64_t rows, int num_heads, int head_dim,
               const RopeFrequencies& freq);
// Plain RoPE with base theta (RopeFrequencies::plain).
void rope_neox(float* x, const int32_t* positions, int64_t rows, int num_heads, int head_dim,
               float theta);
// out[i] = silu(gate[i]) * up[i]. out may alias gate or up.
void silu_mul(const float* gate, const float* up, int64_t n, float* out);
// The same over rows of a fused gate|up projection: out[r, :] = silu(gu[r, :w]) * gu[r, w:2w],
// for gate_up [rows, 2 * width] (one linear call with prepare_weight({&gate, &up})). out may
// alias gate_up (rows are read ahead of where they are written).
void silu_mul_rows(const float* gate_up, int64_t rows, int64_t width, float* out);
// x[i] += y[i]
void add_inplace(float* x, const float* y, int64_t n);
// Numerically stable softmax in place.
void softmax_inplace(float* x, int64_t n);
// out[i, :] = table[ids[i], :] as fp32 (table: [vocab, dim], any dtype).
void embedding_lookup(const Tensor& table, const int32_t* ids, int64_t n, float* out);
// A vocabulary-parallel shard of the table holding rows [row_start, row_start + rows): ids it
// holds are looked up, the others give zero rows (the group's all-reduce fills them in).
void embedding_lookup_shard(const Tensor& table, int64_t row_start, const int32_t* ids, int64_t n,
                            float* out);

}  // namespace infergate
