// Internal: e4m3 codes to the top 16 bits of their fp32 values (a bf16, exactly) by two
// 128-entry byte tables (vpermi2b), for the AVX-512 VBMI kernels (fp8_vbmi.cc widens the words
// to fp32, fp8_bf16.cc multiplies them as bf16). Every e4m3 value is an fp32 whose low 16 bits
// are zero; the tables give bytes 3 (sign and exponent) and 2 of each code's magnitude, the sign
// is the code's own bit 7, and byte unpacks make the words. Included only by translation units
// compiled with the AVX-512 and VBMI flags.
#pragma once

#include <immintrin.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "kernels/cpu/fp8_e4m3.h"

namespace infergate::detail {
namespace {

// The byte order for a 64-byte pair of quads (fp8_layout.h: byte 32q + 4r + u) such that the
// unpacks give, in each 128-bit lane j, row j's four words then row j + 4's: byte 16L + 4j + u
// takes byte 32 (j / 2) + 4 (L + 4 (j % 2)) + u.
struct Fp8ByteTables {
  alignas(64) std::array<uint8_t, 128> high, low;
  alignas(64) std::array<uint8_t, 64> order;
};

inline const Fp8ByteTables& fp8_byte_tables() {
  static const Fp8ByteTables t = [] {
    Fp8ByteTables v{};
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

struct Fp8WordTables {
  __m512i high0, high1, low0, low1, order;
  explicit Fp8WordTables(const Fp8ByteTables& t)
      : high0(_mm512_load_si512(t.high.data())),
        high1(_mm512_load_si512(t.high.data() + 64)),
        low0(_mm512_load_si512(t.low.data())),
        low1(_mm512_load_si512(t.low.data() + 64)),
        order(_mm512_load_si512(t.order.data())) {}

  // 64 codes (two quads) as 16-bit words: quad0 and quad1 hold, in 128-bit lane j, the first
  // and the second quad's row j (words 0-3, its four k) and row j + 4 (words 4-7).
  inline void words(const uint8_t* p, __m512i& quad0, __m512i& quad1) const {
    const __m512i c = _mm512_permutexvar_epi8(order, _mm512_loadu_si512(p));
    const __m512i high = _mm512_ternarylogic_epi32(_mm512_permutex2var_epi8(high0, c, high1), c,
                                                   _mm512_set1_epi8(static_cast<char>(0x80)),
                                                   0xF8);  // table | (code & 0x80)
    const __m512i low = _mm512_permutex2var_epi8(low0, c, low1);
    quad0 = _mm512_unpacklo_epi8(low, high);
    quad1 = _mm512_unpackhi_epi8(low, high);
  }
};

}  // namespace
}  // namespace infergate::detail
