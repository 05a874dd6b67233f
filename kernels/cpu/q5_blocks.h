// llama.cpp's 5-bit 32-value blocks (ggml-common.h block_q5_0, block_q5_1), bit for bit:
//   Q5_0: fp16 d, 4 bytes qh, 16 bytes qs (22 bytes); w = d (q - 16)
//   Q5_1: fp16 d, fp16 m, 4 bytes qh, 16 bytes qs (24 bytes); w = d q + m
// q = nibble | (high bit << 4): value j < 16 takes the low nibble of qs[j] and bit j of qh
// (little-endian uint32), value 16 + j the high nibble of qs[j] and bit 16 + j.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate {

// One block to its 32 fp32 values, as llama.cpp's dequantize_row_q5_0 / _q5_1.
void dequantize_block_q5_0(const uint8_t* block, float* out);
void dequantize_block_q5_1(const uint8_t* block, float* out);
// 32 values to one block, byte for byte as llama.cpp's quantize_row_q5_0_ref / _q5_1_ref (what
// llama-quantize writes without an importance matrix):
//   Q5_0: d = (the value of largest magnitude) / -16, q = min(31, trunc(x / d + 16.5))
//   Q5_1: d = (max - min) / 31, m = min, q = trunc((x - min) / d + 0.5)
void quantize_block_q5_0(const float* x, uint8_t* out);
void quantize_block_q5_1(const float* x, uint8_t* out);

}  // namespace infergate
