// Internal: the x86 kernels of the plane formats (Q5_0, Q5_1, Q2_K, Q3_K, Q5_K, Q6_K, IQ4_NL,
// IQ4_XS; their grouped layout in quant_layout.h), included by quant_x86_impl.h only: its
// udot, q8_quad and broadcast_quad make the integer dot products. Each quad of eight rows'
// codes is decoded from its planes in registers (a load, then shifts and masks; IQ4's levels
// by one vpshufb), so the weights are read at their file's size.
#pragma once

namespace infergate::detail {
namespace {

template <DType D>
constexpr bool kLevelFormat = D == DType::kIQ4_NL || D == DType::kIQ4_XS;
// Q2_K, Q3_K and Q6_K scale 16 values: two integer sums per activation block.
template <DType D>
constexpr bool kHalves = plane_sub_blocks(D) == 16;

// The code's zero subtracted before scaling, times the activation sum (IQ4: its levels stored
// plus 128, which q8_quad takes as Q8_0's offset).
template <DType D>
constexpr int32_t plane_zero() {
  if constexpr (kLevelFormat<D>) return kQ8Bias;
  return D == DType::kQ5_0 ? 16 : D == DType::kQ3_K ? 4 : D == DType::kQ6_K ? 32 : 0;
}

inline __m256i shift_right_16(__m256i v, int bits) {
  return _mm256_srl_epi16(v, _mm_cvtsi32_si128(bits));
}

// Quad t (values 4t .. 4t + 3) of the eight rows from an activation block's planes, unsigned.
template <DType D>
inline __m256i plane_quad(const uint8_t* planes, int t) {
  const auto load = [&](int64_t offset) {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(planes + offset));
  };
  __m256i u = _mm256_setzero_si256();
  if constexpr (plane_has_nib(D)) {
    const __m256i v = load(32 * (t % 4));
    u = _mm256_and_si256(t < 4 ? v : _mm256_srli_epi16(v, 4), _mm256_set1_epi8(15));
  }
  if constexpr (plane_has_cr2(D)) {
    const __m256i two = _mm256_and_si256(
        shift_right_16(load(plane_cr2_offset(D) + 32 * (t / 4)), 2 * (t % 4)), _mm256_set1_epi8(3));
    u = D == DType::kQ6_K ? _mm256_or_si256(u, _mm256_slli_epi16(two, 4)) : two;
  }
  if constexpr (plane_has_hb1(D)) {
    const __m256i bit =
        _mm256_and_si256(shift_right_16(load(plane_hb1_offset(D)), t), _mm256_set1_epi8(1));
    u = _mm256_or_si256(u,
                        D == DType::kQ3_K ? _mm256_slli_epi16(bit, 2) : _mm256_slli_epi16(bit, 4));
  }
  if constexpr (kLevelFormat<D>) {  // kIq4Levels + 128, in both 128-bit lanes
    const __m256i levels = _mm256_setr_epi8(1, 24, 45, 63, 79, 93, 106, 118, -127, -115, -103, -90,
                                            -75, -59, -39, -15, 1, 24, 45, 63, 79, 93, 106, 118,
                                            -127, -115, -103, -90, -75, -59, -39, -15);
    u = _mm256_shuffle_epi8(levels, u);
  }
  return u;
}

// Eight rows' sub-block codes (int8 scales, or unsigned minimums) as fp32.
inline __m256 code_bytes(const uint8_t* p, bool is_signed) {
  const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return _mm256_cvtepi32_ps(is_signed ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes));
}

// An RM x (8 * RN) tile of c, as tile() in quant_x86_impl.h; xs: per 16 values for kHalves.
template <DType D, int RM, int RN>
void plane_tile(const int8_t* xq, const float* xd, const int32_t* xs, int64_t blocks,
                const uint8_t* w, float* c, int64_t ldc, int64_t rows) {
  constexpr int64_t kPer = plane_activation_blocks(D), kGroupBlock = quant_group_block_bytes(D);
  constexpr int kHalfCount = kHalves<D> ? 2 : 1;
  const int64_t lda = blocks * kBlock, stride = blocks / kPer * kGroupBlock;
  __m256 acc[RM][RN];
  for (auto& row : acc) {
    for (auto& a : row) a = _mm256_setzero_ps();
  }
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t a = b % kPer;
    const uint8_t* gb[RN];
    for (int j = 0; j < RN; ++j) gb[j] = w + j * stride + (b / kPer) * kGroupBlock;
    __m256i sums[kHalfCount][RM][RN];
    for (auto& half : sums) {
      for (auto& row : half) {
        for (auto& s : row) s = _mm256_setzero_si256();
      }
    }
    for (int t = 0; t < 8; ++t) {
      const int h = kHalves<D> ? t / 4 : 0;
      __m256i u[RN];
      for (int j = 0; j < RN; ++j) {
        u[j] = plane_quad<D>(gb[j] + quant_group_header_bytes(D) + a * plane_block_bytes(D), t);
      }
      for (int i = 0; i < RM; ++i) {
        const __m256i x = broadcast_quad(xq + i * lda + b * kBlock + 4 * t);
        for (int j = 0; j < RN; ++j) {
          sums[h][i][j] =
              kLevelFormat<D> ? q8_quad(sums[h][i][j], u[j], x) : udot(sums[h][i][j], u[j], x);
        }
      }
    }
    for (int h = 0; h < kHalfCount; ++h) {
      const int64_t s = kHalves<D> ? 2 * a + h : a;  // the half's sub-block
      __m256 dw[RN], mw[RN];
      for (int j = 0; j < RN; ++j) {
        dw[j] = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(gb[j])));
        if constexpr (plane_sub_blocks(D) > 0) {  // d scale_s, exact in fp32
          dw[j] = _mm256_mul_ps(dw[j], code_bytes(gb[j] + plane_scale_offset(D) + kRows * s, true));
        }
        if constexpr (plane_has_min(D)) {
          mw[j] = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(gb[j] + 16)));
        }
        if constexpr (D == DType::kQ5_K || D == DType::kQ2_K) {  // -dmin min_s
          mw[j] = _mm256_mul_ps(
              _mm256_mul_ps(mw[j], code_bytes(gb[j] + plane_min_offset(D) + kRows * s, false)),
              _mm256_set1_ps(-1.0f));
        }
      }
      for (int i = 0; i < RM; ++i) {
        const int32_t x_sum = kHalves<D> ? xs[(i * blocks + b) * 2 + h] : xs[i * blocks + b];
        const __m256i bias = _mm256_set1_epi32(plane_zero<D>() * x_sum);
        const __m256 dx = _mm256_set1_ps(xd[i * blocks + b]);
        for (int j = 0; j < RN; ++j) {
          const __m256 dot = _mm256_cvtepi32_ps(_mm256_sub_epi32(sums[h][i][j], bias));
          acc[i][j] = _mm256_fmadd_ps(dot, _mm256_mul_ps(dw[j], dx), acc[i][j]);
          if constexpr (plane_has_min(D)) {
            const __m256 dx_sum = _mm256_set1_ps(xd[i * blocks + b] * float(x_sum));
            acc[i][j] = _mm256_fmadd_ps(mw[j], dx_sum, acc[i][j]);
          }
        }
      }
    }
  }
  store_tile<RM, RN>(acc, c, ldc, rows);
}

// Tile shapes: the two-sum formats hold twice the integer accumulators.
#if defined(__AVX512VNNI__)
template <DType D>
constexpr int kPlaneTileM = 4;
template <DType D>
constexpr int kPlaneTileN = kHalves<D> ? 1 : 2;
#else
template <DType D>
constexpr int kPlaneTileM = kHalves<D> ? 2 : 4;
template <DType D>
constexpr int kPlaneTileN = 1;
#endif

template <DType D, int RM, int RN>
void plane_tile_groups(const int8_t* xq, const float* xd, const int32_t* xs, const uint8_t* w,
                       int64_t blocks, int64_t groups, int64_t rows, float* c, int64_t ldc) {
  const int64_t stride = blocks / plane_activation_blocks(D) * quant_group_block_bytes(D);
  int64_t g = 0;
  for (; g + RN <= groups; g += RN) {
    plane_tile<D, RM, RN>(xq, xd, xs, blocks, w + g * stride, c + g * kRows, ldc, rows - g * kRows);
  }
  for (; g < groups; ++g) {
    plane_tile<D, RM, 1>(xq, xd, xs, blocks, w + g * stride, c + g * kRows, ldc, rows - g * kRows);
  }
}

template <DType D>
void plane_dot_groups(const int8_t* xq, const float* xd, const int32_t* xs, int64_t m,
                      const uint8_t* w, int64_t blocks, int64_t groups, int64_t rows, float* c,
                      int64_t ldc) {
  // The two-sum formats take the activations' sums per 16 values, computed here once.
  if constexpr (kHalves<D>) xs = quant_half_sums(xq, m * blocks * 2);
  const int64_t lda = blocks * kBlock, xs_per_row = kHalves<D> ? 2 * blocks : blocks;
  constexpr int kM = kPlaneTileM<D>, kN = kPlaneTileN<D>;
  if (m == 1) return plane_tile_groups<D, 1, 1>(xq, xd, xs, w, blocks, groups, rows, c, ldc);
  int64_t i = 0;
  for (; i + kM <= m; i += kM) {
    plane_tile_groups<D, kM, kN>(xq + i * lda, xd + i * blocks, xs + i * xs_per_row, w, blocks,
                                 groups, rows, c + i * ldc, ldc);
  }
  for (; i < m; ++i) {
    plane_tile_groups<D, 1, kN>(xq + i * lda, xd + i * blocks, xs + i * xs_per_row, w, blocks,
                                groups, rows, c + i * ldc, ldc);
  }
}

}  // namespace
}  // namespace infergate::detail
