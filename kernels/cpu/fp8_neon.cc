// NEON kernels of fp8 `linear` for aarch64 (Advanced SIMD is baseline: no flags). Every code
// widens through fp16 as on x86 (fp8_e4m3_as_f16_bits: the sign to bit 15, the rest shifted up
// by 7, the value / 256, subnormals included) and fcvtl does the rest, exactly for every code,
// so the scales' flag (fp8_layout.h) is not needed here. A 16-byte half of a quad is four rows'
// four k: each row's vector multiplies the four activations lane by lane, and each block's
// lanes are summed once per row, then scaled.
#include "kernels/cpu/fp8_kernels.h"

#if defined(__aarch64__)
#include <arm_neon.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);
constexpr int kQuads = static_cast<int>(kFp8Block / 4);

// Eight codes (two rows' four k) as the fp16 bits of their values / 256.
inline uint16x8_t f16_bits(int8x8_t codes) {
  const int16x8_t shifted = vshlq_n_s16(vmovl_s8(codes), 7);
  return vandq_u16(vreinterpretq_u16_s16(shifted), vdupq_n_u16(0xBF80));
}

// MR activation rows against one group: c[i * ldc + r] for r < valid.
template <int MR>
void dot_group(const float* x, int64_t k, const uint8_t* group, int valid, float* c, int64_t ldc) {
  float total[MR][kRows] = {};
  for (int64_t b = 0; b < k / kFp8Block; ++b) {
    const uint8_t* gb = group + b * kFp8GroupBlockBytes;
    const uint8_t* quads = gb + kFp8GroupScaleBytes;
    float32x4_t acc[MR][kRows];
    for (auto& row : acc) {
      for (auto& a : row) a = vdupq_n_f32(0.0f);
    }
    for (int t = 0; t < kQuads; ++t) {
      float32x4_t xv[MR];
      for (int i = 0; i < MR; ++i) xv[i] = vld1q_f32(x + i * k + b * kFp8Block + 4 * t);
      for (int half = 0; half < 2; ++half) {
        const int8x16_t codes =
            vld1q_s8(reinterpret_cast<const int8_t*>(quads + 32 * t + 16 * half));
        const float16x8_t pair_01 = vreinterpretq_f16_u16(f16_bits(vget_low_s8(codes)));
        const float16x8_t pair_23 = vreinterpretq_f16_u16(f16_bits(vget_high_s8(codes)));
        const float32x4_t w[4] = {vcvt_f32_f16(vget_low_f16(pair_01)), vcvt_high_f32_f16(pair_01),
                                  vcvt_f32_f16(vget_low_f16(pair_23)), vcvt_high_f32_f16(pair_23)};
        for (int i = 0; i < MR; ++i) {
          for (int r = 0; r < 4; ++r) {
            acc[i][4 * half + r] = vfmaq_f32(acc[i][4 * half + r], w[r], xv[i]);
          }
        }
      }
    }
    for (int r = 0; r < kRows; ++r) {
      float scale;
      std::memcpy(&scale, gb + 4 * r, 4);
      scale = std::fabs(scale) * kFp8AsF16Factor;  // the sign is a flag (fp8_layout.h)
      for (int i = 0; i < MR; ++i) total[i][r] += vaddvq_f32(acc[i][r]) * scale;
    }
  }
  for (int i = 0; i < MR; ++i) std::copy(total[i], total[i] + valid, c + i * ldc);
}

// Two activation rows at a time: 16 accumulators of the 32 registers.
void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  for_row_groups_in_pairs(
      x, m, k, w, groups, rows, c, ldc,
      [&](const float* xi, const uint8_t* group, int valid, float* ci) {
        dot_group<2>(xi, k, group, valid, ci, ldc);
      },
      [&](const float* xi, const uint8_t* group, int valid, float* ci) {
        dot_group<1>(xi, k, group, valid, ci, ldc);
      });
}

constexpr Fp8Kernels kNeonFp8Kernels = {&dot_groups};

}  // namespace

const Fp8Kernels& neon_fp8_kernels() { return kNeonFp8Kernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const Fp8Kernels& neon_fp8_kernels() { return generic_fp8_kernels(); }
}  // namespace infergate::detail
#endif
