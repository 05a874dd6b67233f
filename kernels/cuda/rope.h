// Rotary embedding on the GPU; twin of kernels/cpu/ops.h's rope_neox ("rotate half" layout:
// within each head, element i pairs with i + head_dim/2). Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

// x: [rows, num_heads * head_dim], rotated in place; positions: [rows], each >= 0 (the CPU
// version throws on a negative one; here, where it cannot be checked without a copy back, such
// a row is left as it was). inv_freq: [head_dim / 2] on the device and scale, as in
// kernels/rope_frequencies.h; the angles are computed as the CPU's table computes them (double).
void rope_neox(float* x, const int32_t* positions, int64_t rows, int num_heads, int head_dim,
               const float* inv_freq, float scale, cudaStream_t stream);

}  // namespace infergate::cuda
