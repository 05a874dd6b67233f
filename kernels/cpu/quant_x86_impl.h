// Internal: the x86 kernels of quantized `linear` over the grouped layout (quant_layout.h),
// included by exactly two translation units: quant_avx2.cc (vpmaddubsw + vpmaddwd) and
// quant_vnni.cc (AVX-512 VNNI: vpdpbusd, and the 32 vector registers AVX-512 gives 256-bit
// code, which allow a larger tile). Everything here has internal linkage, so neither build's
// code can stand in for the other's.
#pragma once

#include <immintrin.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/cpu/quant_kernels.h"
#include "kernels/cpu/quant_layout.h"

namespace infergate::detail {
namespace {

constexpr int kBlock = static_cast<int>(kQuantBlock);
constexpr int kRows = static_cast<int>(kQuantGroupRows);

inline float hmax(__m256 v) {
  const __m128 s = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  const __m128 t = _mm_max_ps(s, _mm_movehl_ps(s, s));
  return _mm_cvtss_f32(_mm_max_ss(t, _mm_movehdup_ps(t)));
}

inline int32_t hsum_i32(__m256i v) {
  const __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  const __m128i t = _mm_add_epi32(s, _mm_unpackhi_epi64(s, s));
  return _mm_cvtsi128_si32(_mm_add_epi32(t, _mm_shuffle_epi32(t, 1)));
}

// Bit-identical to the generic quantize_row: the same fp32 operations, round-to-nearest-even.
void quantize_row(const float* x, int64_t k, int8_t* q, float* d, int32_t* s) {
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  for (int64_t b = 0; b < k / kBlock; ++b) {
    const float* xb = x + b * kBlock;
    __m256 v[4];
    __m256 amax = _mm256_setzero_ps();
    for (int u = 0; u < 4; ++u) {
      v[u] = _mm256_loadu_ps(xb + 8 * u);
      amax = _mm256_max_ps(amax, _mm256_and_ps(v[u], abs_mask));
    }
    const float scale = hmax(amax) / 127.0f;
    const __m256 inv = _mm256_set1_ps(scale != 0 ? 1.0f / scale : 0.0f);
    __m256i i32[4];
    for (int u = 0; u < 4; ++u) {
      i32[u] = _mm256_cvtps_epi32(
          _mm256_round_ps(_mm256_mul_ps(v[u], inv), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    }
    s[b] = hsum_i32(
        _mm256_add_epi32(_mm256_add_epi32(i32[0], i32[1]), _mm256_add_epi32(i32[2], i32[3])));
    // Pack 32 int32 to int8; the packs interleave 128-bit lanes, which the permute undoes.
    const __m256i i8 =
        _mm256_packs_epi16(_mm256_packs_epi32(i32[0], i32[1]), _mm256_packs_epi32(i32[2], i32[3]));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(q + b * kBlock),
                        _mm256_permutevar8x32_epi32(i8, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
    d[b] = scale;
  }
}

inline __m256i broadcast_quad(const int8_t* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return _mm256_set1_epi32(v);
}

// acc + the eight rows' sums of u * x over one quad: u unsigned weights (a Q4_0/Q4_1 nibble, or a
// Q8_0 byte under VNNI), x four signed activations broadcast. Without VNNI, vpmaddubsw's int16
// pair sums hold 2 * 15 * 127 for nibbles; Q8_0 takes q8_quad below instead.
inline __m256i udot(__m256i acc, __m256i u, __m256i x) {
#if defined(__AVX512VNNI__)
  return _mm256_dpbusd_epi32(acc, u, x);
#else
  return _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(u, x), _mm256_set1_epi16(1)));
#endif
}

#if defined(__AVX512VNNI__)
constexpr int32_t kQ8Bias = 128;  // vpdpbusd reads the offset-binary bytes as they are
inline __m256i q8_quad(__m256i acc, __m256i u, __m256i x) { return udot(acc, u, x); }
#else
// 255 * 127 * 2 would saturate vpmaddubsw's int16 pairs: back to signed w, then |w| times x
// with w's sign (|w| <= 128, |x| <= 127: pairs <= 32512). The result carries no bias.
constexpr int32_t kQ8Bias = 0;
inline __m256i q8_quad(__m256i acc, __m256i u, __m256i x) {
  const __m256i w = _mm256_xor_si256(u, _mm256_set1_epi8(static_cast<char>(0x80)));
  const __m256i pairs = _mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w));
  return _mm256_add_epi32(acc, _mm256_madd_epi16(pairs, _mm256_set1_epi16(1)));
}
#endif

// Activation blocks per group block: Q4_K's super-block holds eight.
template <DType D>
constexpr int64_t sub_blocks() {
  return D == DType::kQ4_K ? kQ4_KBlock / kQuantBlock : 1;
}

// Bytes of one group of eight rows with `blocks` activation blocks per row.
template <DType D>
int64_t group_stride(int64_t blocks) {
  return blocks / sub_blocks<D>() * quant_group_block_bytes(D);
}

// The bias each block's integer sum carries: z * (sum of the activation block), z as in
// quant_layout.h (zero where q8_quad undoes it, and for Q4_1 and Q4_K, whose minimums are added
// in float).
// Eight rows' 6-bit Q4_K codes (one byte each) as fp32.
inline __m256 six_bit_codes(const uint8_t* p) {
  return _mm256_cvtepi32_ps(
      _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p))));
}

template <DType D>
constexpr int32_t bias_factor() {
  return has_q8_layout(D) ? kQ8Bias : D == DType::kQ4_0 ? 8 : 0;
}

// W8A8: acc = (sum - z * sum of the activation row) * d_w * d_x, the whole row's integer sums
// scaled once; every block of a row carries the same d_w, read from the first.
template <int RM, int RN>
void scale_row_sums(const __m256i (&sums)[RM][RN], const float* xd, const int32_t* xs,
                    int64_t blocks, const uint8_t* w, int64_t stride, __m256 (&acc)[RM][RN]) {
  for (int i = 0; i < RM; ++i) {
    int32_t row_sum = 0;
    for (int64_t b = 0; b < blocks; ++b) row_sum += xs[i * blocks + b];
    const __m256i bias = _mm256_set1_epi32(kQ8Bias * row_sum);
    const __m256 dx = _mm256_set1_ps(xd[i * blocks]);
    for (int j = 0; j < RN; ++j) {
      const __m256 dw =
          _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + j * stride)));
      acc[i][j] = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(sums[i][j], bias)),
                                _mm256_mul_ps(dw, dx));
    }
  }
}

// Stores an RM x (8 * RN) tile of accumulators into c (rows: the valid rows from the first
// group on; the last group may hold fewer than eight).
template <int RM, int RN>
void store_tile(const __m256 (&acc)[RM][RN], float* c, int64_t ldc, int64_t rows) {
  for (int j = 0; j < RN; ++j) {
    const int64_t valid = std::min<int64_t>(kRows, rows - j * kRows);
    for (int i = 0; i < RM; ++i) {
      float* out = c + i * ldc + j * kRows;
      if (valid == kRows) {
        _mm256_storeu_ps(out, acc[i][j]);
      } else {
        alignas(32) float buf[kRows];
        _mm256_store_ps(buf, acc[i][j]);
        std::copy(buf, buf + valid, out);
      }
    }
  }
}

// An RM x (8 * RN) tile of c: activation rows [0, RM) against the row groups [0, RN).
template <DType D, int RM, int RN>
void tile(const int8_t* xq, const float* xd, const int32_t* xs, int64_t blocks, const uint8_t* w,
          float* c, int64_t ldc, int64_t rows) {
  constexpr int64_t kGroupBlock = quant_group_block_bytes(D);
  const int64_t lda = blocks * kBlock, stride = group_stride<D>(blocks);
  __m256 acc[RM][RN];
  for (auto& row : acc) {
    for (auto& a : row) a = _mm256_setzero_ps();
  }
  // Integer sums per block; W8A8's single scales let them run over the whole row.
  __m256i sums[RM][RN];
  for (auto& row : sums) {
    for (auto& s : row) s = _mm256_setzero_si256();
  }
  for (int64_t b = 0; b < blocks; ++b) {
    if (D != DType::kW8A8 && b > 0) {
      for (auto& row : sums) {
        for (auto& s : row) s = _mm256_setzero_si256();
      }
    }
    const uint8_t* gb[RN];
    for (int j = 0; j < RN; ++j) gb[j] = w + j * stride + (b / sub_blocks<D>()) * kGroupBlock;
    if constexpr (D == DType::kQ4_K) {
      // Sub-block s: the low (s even) or high nibbles of its chunk's 256 bytes.
      const int s = int(b % sub_blocks<D>());
      const __m256i low = _mm256_set1_epi8(15);
      for (int t = 0; t < 8; ++t) {
        __m256i u[RN];
        for (int j = 0; j < RN; ++j) {
          const __m256i v = _mm256_loadu_si256(
              reinterpret_cast<const __m256i*>(gb[j] + kQ4_KGroupHeader + 256 * (s / 2) + 32 * t));
          u[j] = _mm256_and_si256(s % 2 ? _mm256_srli_epi16(v, 4) : v, low);
        }
        for (int i = 0; i < RM; ++i) {
          const __m256i x = broadcast_quad(xq + i * lda + b * kBlock + 4 * t);
          for (int j = 0; j < RN; ++j) sums[i][j] = udot(sums[i][j], u[j], x);
        }
      }
    } else if constexpr (has_q8_layout(D)) {
      for (int t = 0; t < 8; ++t) {
        __m256i u[RN];
        for (int j = 0; j < RN; ++j) {
          u[j] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(gb[j] + 16 + 32 * t));
        }
        for (int i = 0; i < RM; ++i) {
          const __m256i x = broadcast_quad(xq + i * lda + b * kBlock + 4 * t);
          for (int j = 0; j < RN; ++j) sums[i][j] = q8_quad(sums[i][j], u[j], x);
        }
      }
    } else {
      constexpr int64_t kHeader = quant_group_header_bytes(D);
      const __m256i low = _mm256_set1_epi8(15);
      for (int t = 0; t < 4; ++t) {
        __m256i lo[RN], hi[RN];
        for (int j = 0; j < RN; ++j) {
          const __m256i v =
              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(gb[j] + kHeader + 32 * t));
          lo[j] = _mm256_and_si256(v, low);
          hi[j] = _mm256_and_si256(_mm256_srli_epi16(v, 4), low);
        }
        for (int i = 0; i < RM; ++i) {
          const int8_t* xb = xq + i * lda + b * kBlock + 4 * t;
          const __m256i x_lo = broadcast_quad(xb), x_hi = broadcast_quad(xb + 16);
          for (int j = 0; j < RN; ++j) {
            sums[i][j] = udot(udot(sums[i][j], lo[j], x_lo), hi[j], x_hi);
          }
        }
      }
    }
    if constexpr (D == DType::kW8A8) continue;  // scaled once, after the last block
    __m256 dw[RN], mw[RN];
    for (int j = 0; j < RN; ++j) {
      dw[j] = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(gb[j])));
      if constexpr (D == DType::kQ4_1 || D == DType::kQ4_K) {
        mw[j] = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(gb[j] + 16)));
      }
      if constexpr (D == DType::kQ4_K) {  // d scale_s and -dmin min_s, exact in fp32
        const int64_t s = b % sub_blocks<D>();
        dw[j] = _mm256_mul_ps(dw[j], six_bit_codes(gb[j] + 4 * kRows + kRows * s));
        mw[j] = _mm256_mul_ps(_mm256_mul_ps(mw[j], six_bit_codes(gb[j] + 12 * kRows + kRows * s)),
                              _mm256_set1_ps(-1.0f));
      }
    }
    for (int i = 0; i < RM; ++i) {
      const __m256i bias = _mm256_set1_epi32(bias_factor<D>() * xs[i * blocks + b]);
      const __m256 dx = _mm256_set1_ps(xd[i * blocks + b]);
      for (int j = 0; j < RN; ++j) {
        const __m256 dot = _mm256_cvtepi32_ps(_mm256_sub_epi32(sums[i][j], bias));
        acc[i][j] = _mm256_fmadd_ps(dot, _mm256_mul_ps(dw[j], dx), acc[i][j]);
        if constexpr (D == DType::kQ4_1 || D == DType::kQ4_K) {  // + m d_x (sum of the x block)
          const __m256 dx_sum = _mm256_set1_ps(xd[i * blocks + b] * float(xs[i * blocks + b]));
          acc[i][j] = _mm256_fmadd_ps(mw[j], dx_sum, acc[i][j]);
        }
      }
    }
  }
  if constexpr (D == DType::kW8A8) scale_row_sums<RM, RN>(sums, xd, xs, blocks, w, stride, acc);
  store_tile<RM, RN>(acc, c, ldc, rows);
}

#if defined(__AVX512VNNI__)
constexpr int kTileM = 4, kTileN = 2;  // 8 int32 + 8 fp32 accumulators of 32 registers
#else
constexpr int kTileM = 4, kTileN = 1;  // 4 + 4 of 16
#endif

// RM activation rows against all groups: kTileN groups at a time, then one.
template <DType D, int RM, int RN>
void tile_groups(const int8_t* xq, const float* xd, const int32_t* xs, const uint8_t* w,
                 int64_t blocks, int64_t groups, int64_t rows, float* c, int64_t ldc) {
  const int64_t stride = group_stride<D>(blocks);
  int64_t g = 0;
  for (; g + RN <= groups; g += RN) {
    tile<D, RM, RN>(xq, xd, xs, blocks, w + g * stride, c + g * kRows, ldc, rows - g * kRows);
  }
  for (; g < groups; ++g) {
    tile<D, RM, 1>(xq, xd, xs, blocks, w + g * stride, c + g * kRows, ldc, rows - g * kRows);
  }
}

template <DType D>
void dot_groups_typed(const int8_t* xq, const float* xd, const int32_t* xs, int64_t m,
                      const uint8_t* w, int64_t blocks, int64_t groups, int64_t rows, float* c,
                      int64_t ldc) {
  // m = 1 streams one group at a time: one sequential read of the weights.
  if (m == 1) return tile_groups<D, 1, 1>(xq, xd, xs, w, blocks, groups, rows, c, ldc);
  const int64_t lda = blocks * kBlock;
  int64_t i = 0;
  for (; i + kTileM <= m; i += kTileM) {
    tile_groups<D, kTileM, kTileN>(xq + i * lda, xd + i * blocks, xs + i * blocks, w, blocks,
                                   groups, rows, c + i * ldc, ldc);
  }
  for (; i < m; ++i) {
    tile_groups<D, 1, kTileN>(xq + i * lda, xd + i * blocks, xs + i * blocks, w, blocks, groups,
                              rows, c + i * ldc, ldc);
  }
}

}  // namespace
}  // namespace infergate::detail

#include "kernels/cpu/quant_x86_plane_impl.h"

namespace infergate::detail {
namespace {

void dot_groups(const int8_t* xq, const float* xd, const int32_t* xs, int64_t m, const uint8_t* w,
                DType dtype, int64_t blocks, int64_t groups, int64_t rows, float* c, int64_t ldc) {
  switch (dtype) {
    case DType::kQ8_0:
      return dot_groups_typed<DType::kQ8_0>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kW8A8:
      return dot_groups_typed<DType::kW8A8>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ4_0:
      return dot_groups_typed<DType::kQ4_0>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ4_1:
      return dot_groups_typed<DType::kQ4_1>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ4_K:
      return dot_groups_typed<DType::kQ4_K>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ5_0:
      return plane_dot_groups<DType::kQ5_0>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ5_1:
      return plane_dot_groups<DType::kQ5_1>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ2_K:
      return plane_dot_groups<DType::kQ2_K>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ3_K:
      return plane_dot_groups<DType::kQ3_K>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ5_K:
      return plane_dot_groups<DType::kQ5_K>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kQ6_K:
      return plane_dot_groups<DType::kQ6_K>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kIQ4_NL:
      return plane_dot_groups<DType::kIQ4_NL>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    case DType::kIQ4_XS:
      return plane_dot_groups<DType::kIQ4_XS>(xq, xd, xs, m, w, blocks, groups, rows, c, ldc);
    default:
      return;  // quant_linear refuses every other dtype before it gets here
  }
}

constexpr QuantKernels kX86QuantKernels = {&quantize_row, &dot_groups};

}  // namespace
}  // namespace infergate::detail
