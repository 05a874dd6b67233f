// llama.cpp's Q4_K super-block (ggml-common.h block_q4_K), bit for bit: 256 values as
//   fp16 d, fp16 dmin, 12 bytes of eight 6-bit scales and eight 6-bit minimums, 128 bytes qs.
// Sub-block s (values 32s .. 32s + 31) is d * scale_s * q - dmin * min_s, q a nibble; the 64
// values of chunk c = s / 2 share qs[32c .. 32c + 31]: low nibbles are sub-block 2c, high
// nibbles sub-block 2c + 1. Scales and minimums 0-3 are the low 6 bits of bytes 0-3 and 4-7;
// 4-7 keep their low 4 bits in bytes 8-11 (scale low, minimum high nibble) and their top 2 bits
// in the top bits of bytes 0-3 (scales) and 4-7 (minimums).
#pragma once

#include <cstdint>

namespace infergate {

inline constexpr int kQ4_KSubBlocks = 8;

// Sub-block s's 6-bit scale and minimum from the 12 packed bytes.
void q4_k_scale_min(const uint8_t* packed, int s, uint8_t* scale, uint8_t* min);
// The inverse: eight scales and eight minimums (each < 64) into the 12 packed bytes.
void q4_k_pack_scale_min(const uint8_t* scales, const uint8_t* mins, uint8_t* packed);
// One super-block to its 256 fp32 values, as llama.cpp's dequantize_row_q4_K.
void dequantize_block_q4_k(const uint8_t* block, float* out);
// 256 values to one super-block: per sub-block a weighted least-squares fit of scale and
// minimum over a grid of candidate steps (llama.cpp's approach), then the scales and minimums
// quantized to 6 bits against the largest of each and the nibbles recomputed with them.
void quantize_block_q4_k(const float* x, uint8_t* out);

}  // namespace infergate
