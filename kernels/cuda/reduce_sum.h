// Three ways to sum a vector on the GPU, kept as a teaching micro-benchmark (issue 6): one
// atomicAdd per element (contention on one address), a shared-memory tree per block, and warp
// shuffles per block. The two block-level forms add one atomicAdd per block to combine blocks.
// Device pointers; queued on `stream`; *out is zeroed first (on the same stream).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

void reduce_sum_atomic(const float* x, int64_t n, float* out, cudaStream_t stream);
void reduce_sum_shared_tree(const float* x, int64_t n, float* out, cudaStream_t stream);
void reduce_sum_warp_shuffle(const float* x, int64_t n, float* out, cudaStream_t stream);

}  // namespace infergate::cuda
