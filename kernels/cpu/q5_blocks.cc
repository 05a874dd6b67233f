#include "kernels/cpu/q5_blocks.h"

#include <cstring>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

constexpr int kValues = 32;

// The 32 five-bit codes of a block from its qh (4 bytes) and qs (16 bytes).
void five_bit_codes(const uint8_t* qh_bytes, const uint8_t* qs, int* codes) {
  uint32_t qh;
  std::memcpy(&qh, qh_bytes, 4);
  for (int j = 0; j < kValues / 2; ++j) {
    codes[j] = (qs[j] & 15) | int((qh >> j) & 1) << 4;
    codes[j + 16] = (qs[j] >> 4) | int((qh >> (j + 16)) & 1) << 4;
  }
}

}  // namespace

void dequantize_block_q5_0(const uint8_t* block, float* out) {
  const float d = f16_at(block);
  int codes[kValues];
  five_bit_codes(block + 2, block + 6, codes);
  for (int j = 0; j < kValues; ++j) out[j] = float(codes[j] - 16) * d;
}

void dequantize_block_q5_1(const uint8_t* block, float* out) {
  const float d = f16_at(block), m = f16_at(block + 2);
  int codes[kValues];
  five_bit_codes(block + 4, block + 8, codes);
  // Product, then sum, as llama.cpp (this file is built without FMA contraction).
  for (int j = 0; j < kValues; ++j) out[j] = float(codes[j]) * d + m;
}

}  // namespace infergate
