// The scaled KV cache formats (int8, fp8_e4m3): each row of head_dim values (one token, one KV
// head) is stored as codes times one fp32 scale, so the row's largest magnitude maps to the
// format's largest code (127, or 448 for e4m3). Per-row scales follow the values wherever they
// go, token by token, so no calibration is needed and one outlier token costs only its own row.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate {

inline constexpr float kInt8KvMax = 127.0f;
inline constexpr float kFp8E4M3Max = 448.0f;

// OCP FP8 E4M3 (1 sign, 4 exponent bits biased by 7, 3 mantissa bits, subnormals, no
// infinities; 0x7F / 0xFF are NaN): round to nearest even, saturating at +-448, never NaN.
uint8_t f32_to_fp8_e4m3(float x);
float fp8_e4m3_to_f32(uint8_t code);

// An e4m3 code as the fp16 bits of its value divided by 256: the sign moves to bit 15 and the
// exponent and mantissa shift up by 7, so the fp16 exponent bias (15) is the e4m3 one (7) plus
// 8. Subnormals map to subnormals. A vector unit widens e4m3 with its fp16 conversion this way.
inline uint16_t fp8_e4m3_as_f16_bits(uint8_t code) {
  return uint16_t(((code & 0x80u) << 8) | ((code & 0x7Fu) << 7));
}
inline constexpr float kFp8AsF16Factor = 256.0f;

// Quantizes n values of `dtype` (kI8 or kF8E4M3) into `codes`; returns the row's scale
// (0 for a row of zeros, whose codes are all 0).
float quantize_kv_row(const float* x, int n, DType dtype, uint8_t* codes);
// codes times scale, as fp32.
void dequantize_kv_row(const uint8_t* codes, float scale, int n, DType dtype, float* out);

}  // namespace infergate
