// Internal: the per-ISA kernels of fp8 `linear` (weights in fp8_layout.h's groups), one table
// per instruction-set level, each in its own translation unit as linear_kernels.h explains.
//
// No CPU here has FP8 arithmetic, so the kernels widen the codes in registers (through fp16,
// fp8_e4m3_as_f16_bits, or byte tables that give the fp32 bits) and multiply them by the fp32
// activations with fp32 FMAs: every product is exact, the results differ from the reference
// only by fp32 summation order. One table trades that for speed: with AVX512_BF16 the
// activations are rounded to bf16 and multiplied by vdpbf16ps (fp8_bf16.cc).
#pragma once

#include <cstdint>

#include "kernels/cpu/cpu_features.h"

namespace infergate::detail {

struct Fp8Kernels {
  // For activation rows i < m (x: [m, k] fp32, k whole 128-value blocks) and the row groups
  // [0, groups) of w: c[i * ldc + 8g + r] = sum_j x[i, j] * w[8g + r, j], for 8g + r < rows.
  void (*dot_groups)(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                     int64_t rows, float* c, int64_t ldc);
  // Whether dot_groups rounds x to bf16 first (fp8_bf16.cc); the others' products are exact.
  bool bf16_activations = false;
};

const Fp8Kernels& generic_fp8_kernels();
const Fp8Kernels& avx2_fp8_kernels();
const Fp8Kernels& avx512_fp8_kernels();
// AVX-512 VBMI (byte-table widening); the AVX-512 table on CPUs without it.
const Fp8Kernels& vbmi_fp8_kernels();
// AVX-512 VBMI and BF16 (bf16 activations, vdpbf16ps); the VBMI table where not compiled.
const Fp8Kernels& bf16_fp8_kernels();
// aarch64's NEON (fp16 widening, fcvtl); the generic table elsewhere.
const Fp8Kernels& neon_fp8_kernels();
const Fp8Kernels& fp8_kernels_for(IsaLevel level);
// The name of the table fp8_kernels_for(level) returns ("generic", "avx2", "avx512",
// "avx512-vbmi", "avx512-bf16", "neon").
const char* fp8_kernels_name(IsaLevel level);

}  // namespace infergate::detail
