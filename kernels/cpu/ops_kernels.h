// Internal: the per-ISA inner loops of the element-wise ops (ops.h), one table per
// instruction-set level. The loops are written once (ops_portable_impl.h) and compiled in one
// translation unit per level (ops_generic.cc, ops_avx2.cc, ops_avx512.cc), so the compiler
// vectorizes them at that level's width; as in linear_kernels.h, only raw pointers cross.
#pragma once

#include <cstdint>

#include "kernels/cpu/cpu_features.h"

namespace infergate::detail {

struct OpsKernels {
  // out = x / rms(x) * weight over one row of dim values; out may alias x.
  void (*rms_norm_row)(const float* x, const float* weight, int64_t dim, float eps, float* out);
  // One head's rotate-half rotation: (lo, hi) -> (lo c - hi s, hi c + lo s) over half values.
  void (*rope_half)(float* lo, float* hi, const float* cos, const float* sin, int half);
  // out[i] = silu(gate[i]) * up[i]; out may alias gate or up.
  void (*silu_mul)(const float* gate, const float* up, int64_t n, float* out);
  // x[i] += y[i]
  void (*add)(float* x, const float* y, int64_t n);
};

const OpsKernels& generic_ops_kernels();
const OpsKernels& avx2_ops_kernels();
const OpsKernels& avx512_ops_kernels();
const OpsKernels& ops_kernels_for(IsaLevel level);

}  // namespace infergate::detail
