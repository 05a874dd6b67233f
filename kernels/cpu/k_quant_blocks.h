// llama.cpp's 2-, 3-, 5- and 6-bit k-quant super-blocks of 256 values (ggml-common.h
// block_q2_K, block_q3_K, block_q5_K, block_q6_K), bit for bit. Value v belongs to the 16-value
// sub-block v / 16 (Q5_K: the 32-value sub-block v / 32); with h = v / 128 and l = v % 32:
//   Q2_K (84 bytes): 16 scale bytes (scale low nibble, minimum high), qs[64], fp16 d, fp16 dmin;
//        code = qs[32h + l] >> 2j & 3 (j = v % 128 / 32); w = d scale code - dmin min
//   Q3_K (110 bytes): hmask[32], qs[64], 12 bytes of sixteen 6-bit scales, fp16 d; code = the
//        2 bits as Q2_K's minus 4 unless bit 4h + j of hmask[l] is set; w = d (scale - 32) code
//   Q5_K (176 bytes): fp16 d, fp16 dmin, 12 bytes of eight 6-bit scales and minimums (Q4_K's
//        packing, q4_k_block.h), qh[32], qs[128]; code = nibble of qs[32 (s / 2) + l]
//        (high for odd s = v / 32) + 16 x bit s of qh[l]; w = d scale code - dmin min
//   Q6_K (210 bytes): ql[128], qh[64], sixteen int8 scales, fp16 d; code = nibble of
//        ql[64h + l + 32 (q % 2)] (high for q >= 2, q = v % 128 / 32) | (qh[32h + l] >> 2q & 3)
//        << 4; w = d scale (code - 32)
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate {

// One super-block to its 256 fp32 values, as llama.cpp's dequantize_row_q2_K (_q3_K, ...).
void dequantize_block_q2_k(const uint8_t* block, float* out);
void dequantize_block_q3_k(const uint8_t* block, float* out);
void dequantize_block_q5_k(const uint8_t* block, float* out);
void dequantize_block_q6_k(const uint8_t* block, float* out);
// 256 values to one Q6_K super-block, byte for byte as llama.cpp's quantize_row_q6_K_ref (what
// llama-quantize writes without an importance matrix): per 16 values the scale of least
// x^2-weighted squared error among 19 candidate steps, then the sixteen scales coded in int8
// against the largest / -128 and the values requantized with the coded scales.
void quantize_block_q6_k(const float* x, uint8_t* out);
// 256 values to one Q2_K, Q3_K or Q5_K super-block by our own fit (k_quant_fit.cc), which
// llama.cpp reads as any other; not byte for byte as llama-quantize.
void quantize_block_q2_k(const float* x, uint8_t* out);
void quantize_block_q3_k(const float* x, uint8_t* out);
void quantize_block_q5_k(const float* x, uint8_t* out);

}  // namespace infergate
