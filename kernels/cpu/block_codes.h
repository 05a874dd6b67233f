// The integer parts of one block of llama.cpp's Q5_0, Q5_1, Q2_K, Q3_K, Q5_K, Q6_K, IQ4_NL and
// IQ4_XS formats (layouts in q5_blocks.h, k_quant_blocks.h, iq4_blocks.h), unpacked from the
// file's bit packing into one shape, so that the grouped layout (quant_layout.h) and its
// kernels need one reader: value v's code q[v], its sub-block's scale (and minimum) code, the
// fp16 bits of d (and of Q5_1's m or a k-quant's dmin). The weight is, with s v's sub-block
// (16 values for Q2_K, Q3_K and Q6_K, 32 for Q5_K and IQ4_XS; none for the 32-value formats):
//   Q5_0: d (q - 16)              Q5_1: d q + m               IQ4_NL: d level(q)
//   Q2_K: d scale_s q - dmin min_s                            Q3_K: d scale_s (q - 4)
//   Q5_K: d scale_s q - dmin min_s                            Q6_K: d scale_s (q - 32)
//   IQ4_XS: d scale_s level(q)
// Q3_K's and IQ4_XS's 6-bit scales are stored minus 32 here (the signed factor), Q6_K's as the
// file's int8; level is kIq4Levels.
#pragma once

#include <cstdint>

#include "kernels/tensor.h"

namespace infergate {

struct BlockCodes {
  uint16_t d = 0;
  uint16_t dmin = 0;  // Q5_1's m, Q2_K's and Q5_K's dmin
  int8_t scale[16] = {};
  uint8_t min[16] = {};
  uint8_t q[256] = {};
};

// The code subtracted from q before scaling: 16 (Q5_0), 4 (Q3_K), 32 (Q6_K), else 0.
inline constexpr int block_code_zero(DType dtype) {
  switch (dtype) {
    case DType::kQ5_0:
      return 16;
    case DType::kQ3_K:
      return 4;
    case DType::kQ6_K:
      return 32;
    default:
      return 0;
  }
}
// One file block to its codes, and back (bit for bit: encode(decode(b)) == b for every b whose
// unused bits are zero, as llama.cpp writes them).
void decode_block_codes(DType dtype, const uint8_t* block, BlockCodes& codes);
void encode_block_codes(DType dtype, const BlockCodes& codes, uint8_t* block);

}  // namespace infergate
