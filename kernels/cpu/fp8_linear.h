// y = x W^T for fp8 weights (fp8_blocks.h), read in place in the grouped layout of
// fp8_layout.h (prepare_weight repacks them at load): the m = 1 GEMV streams one byte per
// weight plus a scale per 128, and activations stay fp32 (no CPU here computes in FP8; vLLM's
// weight-only FP8 on GPUs without it does the same). linear() routes kFP8 here; this header is
// for linear.cc and the tests.
#pragma once

#include <cstdint>

#include "kernels/cpu/thread_pool.h"

namespace infergate {

// w: [n, k] fp8 (k whole 128-value blocks; std::invalid_argument otherwise), in the grouped
// layout when `grouped`, else row-major as in fp8_blocks.h (then repacked for this call).
void fp8_linear(const float* x, int64_t m, const void* w, bool grouped, int64_t n, int64_t k,
                float* y, ThreadPool& pool);

}  // namespace infergate
