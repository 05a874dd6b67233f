// OCP FP8 E4M3 (`float8_e4m3fn`: 1 sign, 4 exponent bits biased by 7, 3 mantissa bits,
// subnormals, no infinities, largest 448; 0x7F and 0xFF are NaN), the number format of the fp8
// KV cache (kv_quant.h) and of fp8 weights (fp8_blocks.h).
#pragma once

#include <cstdint>

namespace infergate {

inline constexpr float kFp8E4M3Max = 448.0f;

// Round to nearest even, saturating at +-448, never NaN.
uint8_t f32_to_fp8_e4m3(float x);
float fp8_e4m3_to_f32(uint8_t code);
inline bool is_fp8_e4m3_nan(uint8_t code) { return (code & 0x7Fu) == 0x7Fu; }

// An e4m3 code as the fp16 bits of its value divided by 256: the sign moves to bit 15 and the
// exponent and mantissa shift up by 7, so the fp16 exponent bias (15) is the e4m3 one (7) plus
// 8. Subnormals map to subnormals. A vector unit widens e4m3 with its fp16 conversion this way.
inline uint16_t fp8_e4m3_as_f16_bits(uint8_t code) {
  return uint16_t(((code & 0x80u) << 8) | ((code & 0x7Fu) << 7));
}
inline constexpr float kFp8AsF16Factor = 256.0f;

}  // namespace infergate
