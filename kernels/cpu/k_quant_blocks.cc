#include "kernels/cpu/k_quant_blocks.h"

#include <algorithm>
#include <cmath>
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

constexpr float kTinyScale = 1e-15f;  // a group this small quantizes to zeros

// Round to nearest, ties to even, by llama.cpp's bit trick (nearest_int): add 1.5 * 2^23 and
// read the mantissa. Exact for |v| <= 2^22 - 1; beyond that it gives what llama.cpp's does.
int nearest_int(float v) {
  const float shifted = v + 12582912.0f;
  int32_t bits;
  std::memcpy(&bits, &shifted, 4);
  return (bits & 0x007fffff) - 0x00400000;
}

// Codes l in [-32, 31] of 16 values at 1 / step = inv.
int code6(float inv_step_times_x) { return std::clamp(nearest_int(inv_step_times_x), -32, 31); }

// llama.cpp's make_qx_quants(16, 32, x, L, 1, NULL): the step of 16 values (weights x^2) of
// least squared error among -32 / max and 18 nearby candidates; codes (l + 32) into `codes`.
float fit_q6_k_group(const float* x, uint8_t* codes) {
  float max = 0, amax = 0;
  for (int i = 0; i < 16; ++i) {
    if (std::fabs(x[i]) > amax) {
      amax = std::fabs(x[i]);
      max = x[i];
    }
  }
  if (amax < kTinyScale) {
    std::memset(codes, 0, 16);
    return 0;
  }
  const auto sums = [&](float inv, float* sum_lx, float* sum_l2) {
    *sum_lx = *sum_l2 = 0;
    for (int i = 0; i < 16; ++i) {
      const float l = float(code6(inv * x[i]));
      const float w = x[i] * x[i];
      *sum_lx += w * x[i] * l;
      *sum_l2 += w * l * l;
    }
  };
  const auto set_codes = [&](float inv) {
    for (int i = 0; i < 16; ++i) codes[i] = uint8_t(code6(inv * x[i]) + 32);
  };
  float inv = float(-32) / max, sum_lx, sum_l2;
  set_codes(inv);
  sums(inv, &sum_lx, &sum_l2);
  float scale = sum_l2 != 0 ? sum_lx / sum_l2 : 0.0f;
  float best = scale * sum_lx;
  for (int is = -9; is <= 9; ++is) {
    if (is == 0) continue;
    inv = -(32 + 0.1f * float(is)) / max;
    sums(inv, &sum_lx, &sum_l2);
    if (sum_l2 > 0 && sum_lx * sum_lx > best * sum_l2) {
      set_codes(inv);
      scale = sum_lx / sum_l2;
      best = scale * sum_lx;
    }
  }
  return scale;
}

// The 256 codes (0 .. 63) into Q6_K's ql and qh (the layout in the header).
void pack_q6_k(const uint8_t* codes, uint8_t* ql, uint8_t* qh) {
  for (int h = 0; h < 2; ++h, codes += 128, ql += 64, qh += 32) {
    for (int l = 0; l < 32; ++l) {
      ql[l] = uint8_t((codes[l] & 15) | (codes[l + 64] & 15) << 4);
      ql[l + 32] = uint8_t((codes[l + 32] & 15) | (codes[l + 96] & 15) << 4);
      qh[l] = uint8_t(codes[l] >> 4 | (codes[l + 32] >> 4) << 2 | (codes[l + 64] >> 4) << 4 |
                      (codes[l + 96] >> 4) << 6);
    }
  }
}

}  // namespace

void quantize_block_q6_k(const float* x, uint8_t* out) {
  uint8_t codes[256];
  float scales[16], max_scale = 0, max_abs_scale = 0;
  for (int g = 0; g < 16; ++g) {
    scales[g] = fit_q6_k_group(x + 16 * g, codes + 16 * g);
    if (std::fabs(scales[g]) > max_abs_scale) {
      max_abs_scale = std::fabs(scales[g]);
      max_scale = scales[g];
    }
  }
  std::memset(out, 0, size_t(kQ6_KBlockBytes));
  if (max_abs_scale < kTinyScale) return;  // all zero, d = 0 included
  const float inv = -128.0f / max_scale;
  const uint16_t d16 = f32_to_f16(1 / inv);
  std::memcpy(out + 208, &d16, 2);
  auto* coded = reinterpret_cast<int8_t*>(out + 192);
  for (int g = 0; g < 16; ++g) coded[g] = int8_t(std::min(127, nearest_int(inv * scales[g])));
  for (int g = 0; g < 16; ++g) {
    const float d = f16_to_f32(d16) * float(coded[g]);
    if (d == 0) continue;  // the group keeps its fitted codes, as llama.cpp's
    for (int i = 0; i < 16; ++i) codes[16 * g + i] = uint8_t(code6(x[16 * g + i] / d) + 32);
  }
  pack_q6_k(codes, out, out + 128);
}

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
