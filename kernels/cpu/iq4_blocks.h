// llama.cpp's non-linear 4-bit blocks (ggml-common.h block_iq4_nl, block_iq4_xs), bit for bit:
// each nibble indexes a fixed table of sixteen int8 levels (kIq4Levels), denser near zero.
//   IQ4_NL (18 bytes, 32 values): fp16 d, qs[16]; value j < 16 the low nibble of qs[j], 16 + j
//          the high one; w = d level
//   IQ4_XS (136 bytes, 256 values): fp16 d, uint16 scales_h, scales_l[4], qs[128]; sub-block
//          s = v / 32 is laid out as an IQ4_NL block in qs[16 s ..] with the 6-bit scale
//          (scales_l[s / 2] >> 4 (s % 2) & 15) | (scales_h >> 2 s & 3) << 4; w = d (scale - 32)
//          level
#pragma once

#include <array>
#include <cstdint>

#include "kernels/tensor.h"

namespace infergate {

inline constexpr std::array<int8_t, 16> kIq4Levels = {-127, -104, -83, -65, -49, -35, -22, -10,
                                                      1,    13,   25,  38,  53,  69,  89,  113};

// One block to its 32 (IQ4_NL) or 256 (IQ4_XS) fp32 values, as llama.cpp's dequantize_row_*.
void dequantize_block_iq4_nl(const uint8_t* block, float* out);
void dequantize_block_iq4_xs(const uint8_t* block, float* out);
// 32 (256) values to one block, byte for byte as llama-quantize writes without an importance
// matrix (llama.cpp's quantize_iq4_nl / quantize_iq4_xs): per 32 values, levels chosen for the
// step d = -max / -127, then the step of least weighted squared error (weights x^2) among d and
// 15 trial steps; IQ4_XS then codes each 32 values' step in 6 bits against the largest / 32.
void quantize_block_iq4_nl(const float* x, uint8_t* out);
void quantize_block_iq4_xs(const float* x, uint8_t* out);

}  // namespace infergate
