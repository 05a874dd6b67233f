#include "kernels/cpu/kv_quant.h"

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

float quantize_kv_row(const float* x, int n, DType dtype, uint8_t* codes) {
  float amax = 0;
  for (int i = 0; i < n; ++i) amax = std::max(amax, std::fabs(x[i]));
  if (amax == 0) {
    std::fill(codes, codes + n, uint8_t(0));
    return 0;
  }
  if (dtype == DType::kI8) {
    const float scale = amax / kInt8KvMax, inv = kInt8KvMax / amax;
    for (int i = 0; i < n; ++i) {
      const float q = std::clamp(round_even(x[i] * inv), -kInt8KvMax, kInt8KvMax);
      codes[i] = uint8_t(int8_t(q));
    }
    return scale;
  }
  const float scale = amax / kFp8E4M3Max, inv = kFp8E4M3Max / amax;
  for (int i = 0; i < n; ++i) codes[i] = f32_to_fp8_e4m3(x[i] * inv);
  return scale;
}

void dequantize_kv_row(const uint8_t* codes, float scale, int n, DType dtype, float* out) {
  if (dtype == DType::kI8) {
    for (int i = 0; i < n; ++i) out[i] = float(int8_t(codes[i])) * scale;
    return;
  }
  for (int i = 0; i < n; ++i) out[i] = fp8_e4m3_to_f32(codes[i]) * scale;
}

}  // namespace infergate
