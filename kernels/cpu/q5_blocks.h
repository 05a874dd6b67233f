// llama.cpp's 5-bit 32-value blocks (ggml-common.h block_q5_0, block_q5_1), bit for bit:
//   Q5_0: fp16 d, 4 bytes qh, 16 bytes qs (22 bytes); w = d (q - 16)
//   Q5_1: fp16 d, fp16 m, 4 bytes qh, 16 bytes qs (24 bytes); w = d q + m
// q = nibble | (high bit << 4): value j < 16 takes the low nibble of qs[j] and bit j of qh
// (little-endian uint32), value 16 + j the high nibble of qs[j] and bit 16 + j.
// Not yet a weight type of the engine (issue 45): the dequantization llama.cpp's files need.
#pragma once

#include <cstdint>

namespace infergate {

inline constexpr int64_t kQ5_0BlockBytes = 22;
inline constexpr int64_t kQ5_1BlockBytes = 24;

// One block to its 32 fp32 values, as llama.cpp's dequantize_row_q5_0 / _q5_1.
void dequantize_block_q5_0(const uint8_t* block, float* out);
void dequantize_block_q5_1(const uint8_t* block, float* out);

}  // namespace infergate
