// Dense projection y = x * W^T, the GEMM/GEMV at the heart of every layer.
//
// Products are fp32 FMAs on the stored weight values widened to fp32 (never on rounded
// activations), so results differ from linear_reference only by fp32 summation order. One
// exception, for speed: packed bf16 weights with m >= 24 on a CPU with AMX split x into two
// bf16 halves (error <= 2^-16 of each |x w| term; see linear_kernels.h).
// Kernels: AMX / AVX-512 / AVX2+FMA / portable C++, chosen at run time (cpu_features.h).
#pragma once

#include <cstdint>

#include "kernels/cpu/packed_weight.h"
#include "kernels/cpu/thread_pool.h"
#include "kernels/tensor.h"

namespace infergate {

// y[m, n] = sum_k x[m, k] * w[n, k], for w of shape [n, k] in any storage dtype. For m > 1
// this packs weight panels on every call; load-time prepare_weight() avoids that.
void linear(const float* x, int64_t m, const Tensor& w, float* y, ThreadPool& pool);

// The same with a weight packed by prepare_weight(): the fast path for every m.
void linear(const float* x, int64_t m, const PackedWeight& w, float* y, ThreadPool& pool);

// The plain reference: scalar loops with double accumulation. Tests pin `linear` to it.
void linear_reference(const float* x, int64_t m, const Tensor& w, float* y);

}  // namespace infergate
