#include "kernels/cpu/k_quant_blocks.h"

#include <cstring>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/q4_k_block.h"

namespace infergate {

namespace {

constexpr int kValues = 256;

// The 2-bit field of value v in a Q2_K or Q3_K qs[64].
int two_bits(const uint8_t* qs, int v) {
  const int h = v / 128, j = v % 128 / 32, l = v % 32;
  return (qs[32 * h + l] >> (2 * j)) & 3;
}

// Q3_K's sixteen 6-bit scales: low nibbles in bytes 0-7 (scales 8-15 in the high nibbles), the
// top two bits of scale s in bits 2 (s / 4) of byte 8 + s % 4.
int q3_k_scale(const uint8_t* packed, int s) {
  const int low = s < 8 ? packed[s] & 15 : packed[s - 8] >> 4;
  const int high = (packed[8 + s % 4] >> (2 * (s / 4))) & 3;
  return low | high << 4;
}

}  // namespace

void dequantize_block_q2_k(const uint8_t* block, float* out) {
  const uint8_t* scales = block;
  const uint8_t* qs = block + 16;
  const float d = f16_at(block + 80), dmin = f16_at(block + 82);
  for (int v = 0; v < kValues; ++v) {
    const uint8_t sc = scales[v / 16];
    const float dl = d * float(sc & 15), ml = dmin * float(sc >> 4);
    out[v] = dl * float(two_bits(qs, v)) - ml;
  }
}

void dequantize_block_q3_k(const uint8_t* block, float* out) {
  const uint8_t* hmask = block;
  const uint8_t* qs = block + 32;
  const uint8_t* scales = block + 96;
  const float d = f16_at(block + 108);
  for (int v = 0; v < kValues; ++v) {
    const int h = v / 128, j = v % 128 / 32;
    const bool high = hmask[v % 32] & (1 << (4 * h + j));
    const float dl = d * float(q3_k_scale(scales, v / 16) - 32);
    out[v] = dl * float(two_bits(qs, v) - (high ? 0 : 4));
  }
}

void dequantize_block_q5_k(const uint8_t* block, float* out) {
  const float d = f16_at(block), dmin = f16_at(block + 2);
  const uint8_t* qh = block + 16;
  const uint8_t* qs = block + 48;
  for (int s = 0; s < 8; ++s) {
    uint8_t sc, m;
    q4_k_scale_min(block + 4, s, &sc, &m);
    const float scale = d * float(sc), min = dmin * float(m);
    for (int l = 0; l < 32; ++l) {
      const int nibble = (qs[32 * (s / 2) + l] >> (4 * (s % 2))) & 15;
      const int code = nibble + ((qh[l] >> s) & 1) * 16;
      out[32 * s + l] = scale * float(code) - min;
    }
  }
}

void dequantize_block_q6_k(const uint8_t* block, float* out) {
  const uint8_t* ql = block;
  const uint8_t* qh = block + 128;
  const auto* scales = reinterpret_cast<const int8_t*>(block + 192);
  const float d = f16_at(block + 208);
  for (int v = 0; v < kValues; ++v) {
    const int h = v / 128, q = v % 128 / 32, l = v % 32;
    const int nibble = (ql[64 * h + l + 32 * (q % 2)] >> (4 * (q / 2))) & 15;
    const int code = nibble | ((qh[32 * h + l] >> (2 * q)) & 3) << 4;
    out[v] = d * float(scales[v / 16]) * float(code - 32);
  }
}

}  // namespace infergate
