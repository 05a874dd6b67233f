#include "kernels/cpu/iq4_blocks.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

// 32 values of nibble-coded levels from qs[16], each times `scale`.
void levels_times(const uint8_t* qs, float scale, float* out) {
  for (int j = 0; j < 16; ++j) {
    out[j] = scale * float(kIq4Levels[qs[j] & 15]);
    out[j + 16] = scale * float(kIq4Levels[qs[j] >> 4]);
  }
}

constexpr int kTries = 7;             // trial steps each side of the first
constexpr float kTinyBlock = 1e-15f;  // a block this small keeps step 0
constexpr int kLevelCount = 16;

// The level nearest to v (the upper one on a tie), by bisection as llama.cpp.
int nearest_level(float v) {
  if (v <= float(kIq4Levels[0])) return 0;
  if (v >= float(kIq4Levels[kLevelCount - 1])) return kLevelCount - 1;
  int lo = 0, hi = kLevelCount - 1;
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    (v < float(kIq4Levels[mid]) ? hi : lo) = mid;
  }
  return v - float(kIq4Levels[hi - 1]) < float(kIq4Levels[hi]) - v ? hi - 1 : hi;
}

// Sums of w q x and w q q over 32 values with levels chosen for 1 / step = inv.
void fit_sums(const float* x, float inv, float* sum_qx, float* sum_q2) {
  *sum_qx = *sum_q2 = 0;
  for (int j = 0; j < 32; ++j) {
    const float q = float(kIq4Levels[nearest_level(inv * x[j])]);
    const float w = x[j] * x[j];
    *sum_qx += w * q * x[j];
    *sum_q2 += w * q * q;
  }
}

// The step of 32 values: least weighted squared error among the first guess and the trials.
float fit_step(const float* x) {
  float amax = 0, max = 0;
  for (int j = 0; j < 32; ++j) {
    if (std::fabs(x[j]) > amax) {
      amax = std::fabs(x[j]);
      max = x[j];
    }
  }
  if (amax < kTinyBlock) return 0;
  float sum_qx, sum_q2;
  fit_sums(x, 1 / (-max / float(kIq4Levels[0])), &sum_qx, &sum_q2);
  float d = sum_q2 > 0 ? sum_qx / sum_q2 : 0.0f;
  float best = d * sum_qx;
  for (int t = -kTries; t <= kTries; ++t) {
    fit_sums(x, float(t + kIq4Levels[0]) / max, &sum_qx, &sum_q2);
    if (sum_q2 > 0 && sum_qx * sum_qx > best * sum_q2) {
      d = sum_qx / sum_q2;
      best = d * sum_qx;
    }
  }
  return d;
}

// 32 values' nibbles at 1 / step = inv into qs[16].
void pack_levels(const float* x, float inv, uint8_t* qs) {
  for (int j = 0; j < 16; ++j) {
    qs[j] = uint8_t(nearest_level(inv * x[j]) | nearest_level(inv * x[j + 16]) << 4);
  }
}

void put_f16(float v, uint8_t* out) {
  const uint16_t h = f32_to_f16(v);
  std::memcpy(out, &h, 2);
}

}  // namespace

void quantize_block_iq4_nl(const float* x, uint8_t* out) {
  const float d = fit_step(x);
  put_f16(d, out);
  pack_levels(x, d != 0 ? 1 / d : 0.0f, out + 2);
}

void quantize_block_iq4_xs(const float* x, uint8_t* out) {
  float steps[8], max_step = 0, amax_step = 0;
  for (int s = 0; s < 8; ++s) {
    steps[s] = fit_step(x + 32 * s);
    if (std::fabs(steps[s]) > amax_step) {
      amax_step = std::fabs(steps[s]);
      max_step = steps[s];
    }
  }
  const float d = -max_step / 32;
  put_f16(d, out);
  const float inv = d != 0 ? 1 / d : 0.0f;
  uint16_t scales_h = 0;
  uint8_t* scales_l = out + 4;
  std::memset(scales_l, 0, 4);
  for (int s = 0; s < 8; ++s) {
    const int code = std::clamp(int(std::nearbyint(inv * steps[s])), -32, 31);
    const float dl = d * float(code);
    pack_levels(x + 32 * s, dl != 0 ? 1 / dl : 0.0f, out + 8 + 16 * s);
    const int stored = code + 32;
    scales_l[s / 2] |= uint8_t((stored & 15) << (4 * (s % 2)));
    scales_h |= uint16_t((stored >> 4) << (2 * s));
  }
  std::memcpy(out + 2, &scales_h, 2);
}

void dequantize_block_iq4_nl(const uint8_t* block, float* out) {
  levels_times(block + 2, f16_at(block), out);
}

void dequantize_block_iq4_xs(const uint8_t* block, float* out) {
  const float d = f16_at(block);
  uint16_t scales_h;
  std::memcpy(&scales_h, block + 2, 2);
  const uint8_t* scales_l = block + 4;
  for (int s = 0; s < 8; ++s) {
    const int scale = ((scales_l[s / 2] >> (4 * (s % 2))) & 15) | ((scales_h >> (2 * s)) & 3) << 4;
    levels_times(block + 8 + 16 * s, d * float(scale - 32), out + 32 * s);
  }
}

}  // namespace infergate
