#include "kernels/cpu/fp8_e4m3.h"

#include <algorithm>
#include <cmath>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

// Round half to even of a non-negative value below 2^23.
float round_even(float v) { return std::nearbyint(v); }  // default rounding mode: to nearest even

}  // namespace

uint8_t f32_to_fp8_e4m3(float x) {
  const uint8_t sign = std::signbit(x) ? 0x80 : 0x00;
  const float a = std::fabs(x);
  if (!(a < kFp8E4M3Max)) return sign | 0x7E;  // 448 and above (and NaN) saturate
  constexpr float kMinNormal = 0.015625f;      // 2^-6
  if (a < kMinNormal) {
    // Subnormals step by 2^-9; rounding up to 8 steps gives code 8, the smallest normal.
    return sign | uint8_t(round_even(a * 512.0f));
  }
  int e = 0;
  const float m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exponent = e - 1;               // a = (2m) * 2^(e-1), 2m in [1, 2)
  int mantissa = int(round_even((2.0f * m - 1.0f) * 8.0f));
  if (mantissa == 8) {
    mantissa = 0;
    ++exponent;
  }
  const int code = std::min((exponent + 7) << 3 | mantissa, 0x7E);
  return sign | uint8_t(code);
}

float fp8_e4m3_to_f32(uint8_t code) {
  return f16_to_f32(fp8_e4m3_as_f16_bits(code)) * kFp8AsF16Factor;
}

}  // namespace infergate
