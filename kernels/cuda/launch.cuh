// Shared by the .cu files: launch geometry and the after-launch check.
#pragma once

#include <cstdint>

#include "kernels/cuda/cuda_check.h"

namespace infergate::cuda::detail {

constexpr int kThreads = 256;  // a multiple of the warp size, as block_sum needs

// Blocks for a grid-stride loop over n elements; capped because the loops stride anyway.
inline unsigned grid_for(int64_t n) {
  const int64_t blocks = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(blocks < 65535 ? blocks : 65535);
}

// Launch errors (bad configuration) surface here; faults inside a kernel at the next sync.
#define INFERGATE_CUDA_CHECK_LAUNCH() INFERGATE_CUDA_CHECK(cudaGetLastError())

}  // namespace infergate::cuda::detail
