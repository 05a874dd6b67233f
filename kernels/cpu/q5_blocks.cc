#include "kernels/cpu/q5_blocks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

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

// Packs 32 five-bit codes: low nibbles in qs (values j and 16 + j share byte j), fifth bits in
// qh (bit j of a little-endian uint32 for value j).
void pack_five_bit_codes(const int* codes, uint8_t* qh_bytes, uint8_t* qs) {
  uint32_t qh = 0;
  for (int j = 0; j < kValues / 2; ++j) {
    qs[j] = uint8_t((codes[j] & 15) | (codes[j + 16] & 15) << 4);
    qh |= uint32_t((codes[j] >> 4) & 1) << j | uint32_t((codes[j + 16] >> 4) & 1) << (j + 16);
  }
  std::memcpy(qh_bytes, &qh, 4);
}

void put_f16(float v, uint8_t* out) {
  const uint16_t h = f32_to_f16(v);
  std::memcpy(out, &h, 2);
}

}  // namespace

void quantize_block_q5_0(const float* x, uint8_t* out) {
  float amax = 0, max = 0;
  for (int j = 0; j < kValues; ++j) {
    if (amax < std::fabs(x[j])) {
      amax = std::fabs(x[j]);
      max = x[j];
    }
  }
  const float d = max / -16.0f;
  const float id = d != 0 ? 1.0f / d : 0.0f;
  put_f16(d, out);
  int codes[kValues];
  for (int j = 0; j < kValues; ++j) codes[j] = std::min(31, int(int8_t(x[j] * id + 16.5f)));
  pack_five_bit_codes(codes, out + 2, out + 6);
}

void quantize_block_q5_1(const float* x, uint8_t* out) {
  float min = std::numeric_limits<float>::max(), max = -std::numeric_limits<float>::max();
  for (int j = 0; j < kValues; ++j) {
    min = std::min(min, x[j]);
    max = std::max(max, x[j]);
  }
  const float d = (max - min) / 31.0f;
  const float id = d != 0 ? 1.0f / d : 0.0f;
  put_f16(d, out);
  put_f16(min, out + 2);
  int codes[kValues];
  for (int j = 0; j < kValues; ++j) codes[j] = uint8_t((x[j] - min) * id + 0.5f);
  pack_five_bit_codes(codes, out + 4, out + 8);
}

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
