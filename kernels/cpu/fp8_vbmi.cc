// AVX-512 VBMI kernels of fp8 `linear` (compiled with the AVX-512 flags plus -mavx512vbmi; only
// called after cpu_features.cc saw AVX512_VBMI: Ice Lake, Sapphire Rapids, Zen 4 and later).
// Every e4m3 value is an fp32 whose low 16 bits are zero, so two 128-entry byte tables indexed
// by the code's magnitude (vpermi2b) give its top two bytes, the sign is the code's own bit 7,
// and unpacks place them (bytes into words, words against zero into fp32): 64 weights become
// four fp32 vectors with nine shuffles and no conversion, where the fp16 route's two vcvtph2ps
// per 32 weights bound it (fp8_avx512.cc; 1.3x its GEMV on Zen 5).
#include "kernels/cpu/fp8_kernels.h"

#if defined(__AVX512VBMI__) && defined(__AVX512BW__)
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstring>

#include "kernels/cpu/fp8_avx512_impl.h"
#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

// The fp32 bytes 3 (sign and exponent) and 2 of each code's magnitude, then a byte order for a
// 64-byte pair of quads (fp8_layout.h: byte 32q + 4r + u) such that widen() below yields rows
// 0-3 of quad 0, rows 4-7 of quad 0, rows 0-3 of quad 1 and rows 4-7 of quad 1: byte 16L + 4j +
// u takes byte 32 (j / 2) + 4 (L + 4 (j % 2)) + u.
struct Tables {
  alignas(64) std::array<uint8_t, 128> high, low;
  alignas(64) std::array<uint8_t, 64> order;
};

const Tables& tables() {
  static const Tables t = [] {
    Tables v{};
    for (int c = 0; c < 128; ++c) {
      const float f = fp8_e4m3_to_f32(uint8_t(c));
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      v.high[size_t(c)] = uint8_t(bits >> 24);
      v.low[size_t(c)] = uint8_t(bits >> 16);
    }
    for (int n = 0; n < 64; ++n) {
      const int lane = n / 16, j = (n % 16) / 4, u = n % 4;
      v.order[size_t(n)] = uint8_t(32 * (j / 2) + 4 * (lane + 4 * (j % 2)) + u);
    }
    return v;
  }();
  return t;
}

struct TableWidener {
  static constexpr float kScaleFactor = 1.0f;  // the tables give the values themselves
  __m512i high0, high1, low0, low1, order;
  explicit TableWidener(const Tables& t)
      : high0(_mm512_load_si512(t.high.data())),
        high1(_mm512_load_si512(t.high.data() + 64)),
        low0(_mm512_load_si512(t.low.data())),
        low1(_mm512_load_si512(t.low.data() + 64)),
        order(_mm512_load_si512(t.order.data())) {}

  // 64 codes (two quads) as w[0] rows 0-3 and w[1] rows 4-7 of the first quad, w[2] and w[3]
  // of the second, each at lane 4r + u.
  inline void widen(const uint8_t* p, __m512 w[4]) const {
    const __m512i c = _mm512_permutexvar_epi8(order, _mm512_loadu_si512(p));
    const __m512i high = _mm512_ternarylogic_epi32(_mm512_permutex2var_epi8(high0, c, high1), c,
                                                   _mm512_set1_epi8(static_cast<char>(0x80)),
                                                   0xF8);  // table | (code & 0x80)
    const __m512i low = _mm512_permutex2var_epi8(low0, c, low1);
    const __m512i words_lo = _mm512_unpacklo_epi8(low, high);  // quad 0
    const __m512i words_hi = _mm512_unpackhi_epi8(low, high);  // quad 1
    const __m512i zero = _mm512_setzero_si512();
    w[0] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, words_lo));
    w[1] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, words_lo));
    w[2] = _mm512_castsi512_ps(_mm512_unpacklo_epi16(zero, words_hi));
    w[3] = _mm512_castsi512_ps(_mm512_unpackhi_epi16(zero, words_hi));
  }
};

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  dot_groups_with(TableWidener(tables()), x, m, k, w, groups, rows, c, ldc);
}

constexpr Fp8Kernels kVbmiFp8Kernels = {&dot_groups};

}  // namespace

const Fp8Kernels& vbmi_fp8_kernels() { return kVbmiFp8Kernels; }

}  // namespace infergate::detail
#else
namespace infergate::detail {
const Fp8Kernels& vbmi_fp8_kernels() { return avx512_fp8_kernels(); }
}  // namespace infergate::detail
#endif
