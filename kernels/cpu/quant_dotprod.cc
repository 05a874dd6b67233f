// aarch64 kernels of quantized `linear` with the dot-product extension (compiled with
// -march=armv8.2-a+dotprod; chosen at the neon level only where the CPU reports it, HWCAP_ASIMDDP:
// Cortex-A55/A75 and later, every Neoverse, Apple M1 and later). The grouped layout's quad
// (eight rows' four k, quant_layout.h) is two 128-bit vectors, rows 0-3 and rows 4-7, and one
// sdot adds each row's four products to its int32 lane: the x86 kernels' scheme
// (quant_x86_impl.h) with signed weights, so Q8_0 and IQ4 need no offset. Codes come out of
// their planes as there, by byte shifts and masks (IQ4's levels by one tbl).
#include "kernels/cpu/quant_kernels.h"

#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
#include <arm_neon.h>

#include <algorithm>
#include <cstring>

#include "kernels/cpu/block_codes.h"
#include "kernels/cpu/iq4_blocks.h"
#include "kernels/cpu/quant_layout.h"

namespace infergate::detail {

namespace {

constexpr int kBlock = static_cast<int>(kQuantBlock);
constexpr int kRows = static_cast<int>(kQuantGroupRows);
constexpr int kTileM = 4;  // activation rows per tile: 16 int32 + 8 fp32 accumulators of 32

// Eight rows' values: rows 0-3 in lo, rows 4-7 in hi.
struct Rows8 {
  float32x4_t lo, hi;
};
struct Sums8 {
  int32x4_t lo, hi;
};

// Bit-identical to the generic quantize_row: the same fp32 operations, round-to-nearest-even.
void quantize_row(const float* x, int64_t k, int8_t* q, float* d, int32_t* s) {
  for (int64_t b = 0; b < k / kBlock; ++b) {
    const float* xb = x + b * kBlock;
    float32x4_t v[8];
    float32x4_t amax = vdupq_n_f32(0.0f);
    for (int u = 0; u < 8; ++u) {
      v[u] = vld1q_f32(xb + 4 * u);
      amax = vmaxq_f32(amax, vabsq_f32(v[u]));
    }
    const float scale = vmaxvq_f32(amax) / 127.0f;
    const float32x4_t inv = vdupq_n_f32(scale != 0 ? 1.0f / scale : 0.0f);
    int32x4_t sum = vdupq_n_s32(0);
    for (int u = 0; u < 8; u += 2) {
      const int32x4_t a = vcvtnq_s32_f32(vmulq_f32(v[u], inv));
      const int32x4_t c = vcvtnq_s32_f32(vmulq_f32(v[u + 1], inv));
      sum = vaddq_s32(sum, vaddq_s32(a, c));
      const int16x8_t pair = vcombine_s16(vqmovn_s32(a), vqmovn_s32(c));
      vst1_s8(q + b * kBlock + 4 * u, vqmovn_s16(pair));
    }
    s[b] = vaddvq_s32(sum);
    d[b] = scale;
  }
}

// Activation blocks per format block: a super-block's eight, or one.
template <DType D>
constexpr int64_t activation_blocks() {
  if constexpr (D == DType::kQ4_K) return kQ4_KBlock / kQuantBlock;
  if constexpr (has_plane_layout(D)) return plane_activation_blocks(D);
  return 1;
}
// Q2_K, Q3_K and Q6_K scale 16 values: two integer sums per activation block.
template <DType D>
constexpr bool kHalves = has_plane_layout(D) && plane_sub_blocks(D) == 16;
template <DType D>
constexpr bool kHasMin = D == DType::kQ4_1 || D == DType::kQ4_K || plane_has_min(D);
// The code's zero, subtracted as zero times the activation sum (the others decode signed).
template <DType D>
constexpr int32_t code_zero() {
  return D == DType::kQ4_0 ? 8 : block_code_zero(D);
}

inline uint8x16_t shift_right(uint8x16_t v, int bits) {
  return vshlq_u8(v, vdupq_n_s8(static_cast<int8_t>(-bits)));
}

// Half `half` (rows 4 half .. 4 half + 3) of quad t of activation block a of group block gb,
// as the rows' int8 codes: signed values, or unsigned codes whose zero code_zero() removes.
template <DType D>
inline int8x16_t quad_half(const uint8_t* gb, int64_t a, int t, int half) {
  const auto load = [&](int64_t offset) { return vld1q_u8(gb + offset + 16 * half); };
  const auto low4 = [] { return vdupq_n_u8(15); };
  if constexpr (has_q8_layout(D)) {  // offset binary back to signed
    return vreinterpretq_s8_u8(veorq_u8(load(16 + 32 * t), vdupq_n_u8(0x80)));
  } else if constexpr (D == DType::kQ4_K) {  // sub-block a: low (even) or high nibbles
    const uint8x16_t v = load(kQ4_KGroupHeader + 256 * (a / 2) + 32 * t);
    return vreinterpretq_s8_u8(a % 2 ? vshrq_n_u8(v, 4) : vandq_u8(v, low4()));
  } else if constexpr (!has_plane_layout(D)) {  // Q4_0, Q4_1: vector t % 4's nibbles
    const uint8x16_t v = load(quant_group_header_bytes(D) + 32 * (t % 4));
    return vreinterpretq_s8_u8(t < 4 ? vandq_u8(v, low4()) : vshrq_n_u8(v, 4));
  } else {
    const int64_t base = quant_group_header_bytes(D) + a * plane_block_bytes(D);
    uint8x16_t u = vdupq_n_u8(0);
    if constexpr (plane_has_nib(D)) {
      const uint8x16_t v = load(base + 32 * (t % 4));
      u = t < 4 ? vandq_u8(v, low4()) : vshrq_n_u8(v, 4);
    }
    if constexpr (plane_has_cr2(D)) {
      const uint8x16_t two = vandq_u8(
          shift_right(load(base + plane_cr2_offset(D) + 32 * (t / 4)), 2 * (t % 4)), vdupq_n_u8(3));
      u = D == DType::kQ6_K ? vorrq_u8(u, vshlq_n_u8(two, 4)) : two;
    }
    if constexpr (plane_has_hb1(D)) {
      const uint8x16_t bit =
          vandq_u8(shift_right(load(base + plane_hb1_offset(D)), t), vdupq_n_u8(1));
      u = vorrq_u8(u, D == DType::kQ3_K ? vshlq_n_u8(bit, 2) : vshlq_n_u8(bit, 4));
    }
    if constexpr (D == DType::kIQ4_NL || D == DType::kIQ4_XS) {
      return vqtbl1q_s8(vld1q_s8(kIq4Levels.data()), u);
    }
    return vreinterpretq_s8_u8(u);
  }
}

inline Rows8 halves_f32(const uint8_t* p) {  // eight fp16
  const float16x8_t h = vreinterpretq_f16_u16(vld1q_u16(reinterpret_cast<const uint16_t*>(p)));
  return {vcvt_f32_f16(vget_low_f16(h)), vcvt_high_f32_f16(h)};
}
inline Rows8 codes_f32(const uint8_t* p, bool is_signed) {  // eight int8 or uint8 scale codes
  const uint8x8_t bytes = vld1_u8(p);
  const int16x8_t wide =
      is_signed ? vmovl_s8(vreinterpret_s8_u8(bytes)) : vreinterpretq_s16_u16(vmovl_u8(bytes));
  return {vcvtq_f32_s32(vmovl_s16(vget_low_s16(wide))), vcvtq_f32_s32(vmovl_high_s16(wide))};
}
inline Rows8 mul(Rows8 a, Rows8 b) { return {vmulq_f32(a.lo, b.lo), vmulq_f32(a.hi, b.hi)}; }
inline Rows8 negate(Rows8 a) { return {vnegq_f32(a.lo), vnegq_f32(a.hi)}; }

// The eight rows' scale dw and minimum mw of half h of activation block a: w = dw code + mw.
template <DType D>
inline void block_scales(const uint8_t* gb, int64_t a, int h, Rows8& dw, Rows8& mw) {
  dw = halves_f32(gb);
  if constexpr (kHasMin<D>) mw = halves_f32(gb + 16);
  if constexpr (D == DType::kQ4_K) {  // d scale_a and -dmin min_a, exact in fp32
    dw = mul(dw, codes_f32(gb + 4 * kRows + kRows * a, false));
    mw = negate(mul(mw, codes_f32(gb + 12 * kRows + kRows * a, false)));
  } else if constexpr (has_plane_layout(D) && plane_sub_blocks(D) > 0) {
    const int64_t s = kHalves<D> ? 2 * a + h : a;
    dw = mul(dw, codes_f32(gb + plane_scale_offset(D) + kRows * s, true));
    if constexpr (D == DType::kQ5_K || D == DType::kQ2_K) {
      mw = negate(mul(mw, codes_f32(gb + plane_min_offset(D) + kRows * s, false)));
    }
  }
}

inline int8x16_t broadcast_quad(const int8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return vreinterpretq_s8_s32(vdupq_n_s32(v));
}

// Activation rows [0, RM) against one group of eight rows: c[i * ldc + r] for r < rows.
// xs: the activation sums per block, or per 16 values where kHalves.
template <DType D, int RM>
void tile(const int8_t* xq, const float* xd, const int32_t* xs, int64_t blocks, const uint8_t* w,
          float* c, int64_t ldc, int64_t rows) {
  constexpr int64_t kPer = activation_blocks<D>();
  constexpr int kHalfCount = kHalves<D> ? 2 : 1;
  const int64_t lda = blocks * kBlock;
  Rows8 acc[RM];
  for (auto& v : acc) v = {vdupq_n_f32(0.0f), vdupq_n_f32(0.0f)};
  for (int64_t b = 0; b < blocks; ++b) {
    const uint8_t* gb = w + (b / kPer) * quant_group_block_bytes(D);
    const int64_t a = b % kPer;
    Sums8 sums[kHalfCount][RM];
    for (auto& half : sums) {
      for (auto& s : half) s = {vdupq_n_s32(0), vdupq_n_s32(0)};
    }
    for (int t = 0; t < 8; ++t) {
      const int h = kHalves<D> ? t / 4 : 0;
      const int8x16_t lo = quad_half<D>(gb, a, t, 0), hi = quad_half<D>(gb, a, t, 1);
      for (int i = 0; i < RM; ++i) {
        const int8x16_t x = broadcast_quad(xq + i * lda + b * kBlock + 4 * t);
        sums[h][i].lo = vdotq_s32(sums[h][i].lo, lo, x);
        sums[h][i].hi = vdotq_s32(sums[h][i].hi, hi, x);
      }
    }
    for (int h = 0; h < kHalfCount; ++h) {
      Rows8 dw{}, mw{};
      block_scales<D>(gb, a, h, dw, mw);
      for (int i = 0; i < RM; ++i) {
        const int32_t x_sum = kHalves<D> ? xs[(i * blocks + b) * 2 + h] : xs[i * blocks + b];
        const float dx = xd[i * blocks + b];
        const int32x4_t bias = vdupq_n_s32(code_zero<D>() * x_sum);
        const float32x4_t lo = vcvtq_f32_s32(vsubq_s32(sums[h][i].lo, bias));
        const float32x4_t hi = vcvtq_f32_s32(vsubq_s32(sums[h][i].hi, bias));
        acc[i].lo = vfmaq_f32(acc[i].lo, lo, vmulq_n_f32(dw.lo, dx));
        acc[i].hi = vfmaq_f32(acc[i].hi, hi, vmulq_n_f32(dw.hi, dx));
        if constexpr (kHasMin<D>) {  // + mw d_x (sum of the x block)
          const float dx_sum = dx * float(x_sum);
          acc[i].lo = vfmaq_n_f32(acc[i].lo, mw.lo, dx_sum);
          acc[i].hi = vfmaq_n_f32(acc[i].hi, mw.hi, dx_sum);
        }
      }
    }
  }
  for (int i = 0; i < RM; ++i) {
    alignas(16) float out[kRows];
    vst1q_f32(out, acc[i].lo);
    vst1q_f32(out + 4, acc[i].hi);
    std::copy(out, out + std::min<int64_t>(kRows, rows), c + i * ldc);
  }
}

template <DType D>
void dot_groups_typed(const int8_t* xq, const float* xd, const int32_t* xs, int64_t m,
                      const uint8_t* w, int64_t blocks, int64_t groups, int64_t rows, float* c,
                      int64_t ldc) {
  if constexpr (kHalves<D>) xs = quant_half_sums(xq, m * blocks * 2);
  const int64_t lda = blocks * kBlock, xs_per_row = kHalves<D> ? 2 * blocks : blocks;
  const int64_t stride = blocks / activation_blocks<D>() * quant_group_block_bytes(D);
  int64_t i = 0;
  for (; i < m; i += (m - i >= kTileM ? kTileM : 1)) {
    for (int64_t g = 0; g < groups; ++g) {
      const auto run = m - i >= kTileM ? &tile<D, kTileM> : &tile<D, 1>;
      run(xq + i * lda, xd + i * blocks, xs + i * xs_per_row, blocks, w + g * stride,
          c + i * ldc + g * kRows, ldc, rows - g * kRows);
    }
  }
}

void dot_groups(const int8_t* xq, const float* xd, const int32_t* xs, int64_t m, const uint8_t* w,
                DType dtype, int64_t blocks, int64_t groups, int64_t rows, float* c, int64_t ldc) {
  switch (dtype) {
#define INFERGATE_DOT_CASE(D) \
  case D:                     \
    return dot_groups_typed<D>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    INFERGATE_DOT_CASE(DType::kQ8_0)
    INFERGATE_DOT_CASE(DType::kW8A8)
    INFERGATE_DOT_CASE(DType::kQ4_0)
    INFERGATE_DOT_CASE(DType::kQ4_1)
    INFERGATE_DOT_CASE(DType::kQ4_K)
    INFERGATE_DOT_CASE(DType::kQ5_0)
    INFERGATE_DOT_CASE(DType::kQ5_1)
    INFERGATE_DOT_CASE(DType::kQ2_K)
    INFERGATE_DOT_CASE(DType::kQ3_K)
    INFERGATE_DOT_CASE(DType::kQ5_K)
    INFERGATE_DOT_CASE(DType::kQ6_K)
    INFERGATE_DOT_CASE(DType::kIQ4_NL)
    INFERGATE_DOT_CASE(DType::kIQ4_XS)
#undef INFERGATE_DOT_CASE
    default:
      return;  // quant_linear refuses every other dtype before it gets here
  }
}

constexpr QuantKernels kDotprodQuantKernels = {&quantize_row, &dot_groups};

}  // namespace

const QuantKernels& dotprod_quant_kernels() { return kDotprodQuantKernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const QuantKernels& dotprod_quant_kernels() { return generic_quant_kernels(); }
}  // namespace infergate::detail
#endif
