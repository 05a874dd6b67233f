#include "kernels/cpu/q4_k_block.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

constexpr int kSub = 32;      // values per sub-block
constexpr int kLevels = 15;   // largest nibble
constexpr int kSixBits = 63;  // largest scale or minimum code
constexpr int kSteps = 20;    // candidate steps tried per sub-block

// Round to nearest, ties to even, as nearbyint in the default rounding mode, for |v| < 2^22:
// adding and subtracting 1.5 * 2^23 leaves the rounded value. No libm call, so the fitting loops
// vectorize (quantizing the small model to Q4_K took 21 s through nearbyint).
float round_small(float v) {
  constexpr float kMagic = 12582912.0f;
  return (v + kMagic) - kMagic;
}
// Codes are small: values beyond 2^22 are clamped before rounding, which rounds them the same.
int nearest(float v) {
  return static_cast<int>(round_small(std::clamp(v, -4194304.0f, 4194304.0f)));
}
int clamp_level(float v, int top) {
  return static_cast<int>(round_small(std::clamp(v, 0.0f, float(top))));
}

// Scale and offset (offset <= 0) minimizing sum w (scale * q + offset - x)^2 over a sub-block,
// trying steps from (max - min) / (15 - 1) to (max - min) / (15 + 0.9) and refitting both by
// least squares for each rounding. Returns the scale; *offset gets the offset.
float fit_sub_block(const float* x, const float* w, float* offset) {
  float lo = *std::min_element(x, x + kSub), hi = *std::max_element(x, x + kSub);
  lo = std::min(lo, 0.0f);  // stored as -dmin * min with min >= 0
  *offset = lo;
  if (hi == lo) return 0.0f;
  float sum_w = 0, sum_x = 0;
  for (int i = 0; i < kSub; ++i) {
    sum_w += w[i];
    sum_x += w[i] * x[i];
  }
  // Weighted squared error of the rounding made with step 1 / inv, under (scale, off).
  auto error = [&](float scale, float off, float inv) {
    float e = 0;
    for (int i = 0; i < kSub; ++i) {
      const float diff = scale * float(clamp_level(inv * (x[i] - lo), kLevels)) + off - x[i];
      e += w[i] * diff * diff;
    }
    return e;
  };
  float best_scale = (hi - lo) / kLevels;
  float best = error(best_scale, lo, kLevels / (hi - lo));
  for (int step = 0; step <= kSteps; ++step) {
    const float inv = (-1.0f + 0.1f * float(step) + kLevels) / (hi - lo);
    float sl = 0, sl2 = 0, sxl = 0;
    for (int i = 0; i < kSub; ++i) {
      const float l = float(clamp_level(inv * (x[i] - lo), kLevels));
      sl += w[i] * l;
      sl2 += w[i] * l * l;
      sxl += w[i] * l * x[i];
    }
    const float det = sum_w * sl2 - sl * sl;
    if (det <= 0) continue;
    float scale = (sum_w * sxl - sum_x * sl) / det;
    float off = (sl2 * sum_x - sl * sxl) / det;
    if (off > 0) {
      off = 0;
      scale = sxl / sl2;
    }
    const float e = error(scale, off, inv);  // that rounding, under the refit scale and offset
    if (e < best) {
      best = e;
      best_scale = scale;
      *offset = off;
    }
  }
  return best_scale;
}

}  // namespace

void q4_k_pack_scale_min(const uint8_t* scales, const uint8_t* mins, uint8_t* packed) {
  std::memset(packed, 0, 12);
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    if (s < 4) {
      packed[s] = scales[s];
      packed[s + 4] = mins[s];
    } else {
      packed[s + 4] = uint8_t((scales[s] & 15) | ((mins[s] & 15) << 4));
      packed[s - 4] |= uint8_t((scales[s] >> 4) << 6);
      packed[s] |= uint8_t((mins[s] >> 4) << 6);
    }
  }
}

void q4_k_scale_min(const uint8_t* packed, int s, uint8_t* scale, uint8_t* min) {
  if (s < 4) {
    *scale = packed[s] & 63;
    *min = packed[s + 4] & 63;
  } else {
    *scale = uint8_t((packed[s + 4] & 15) | ((packed[s - 4] >> 6) << 4));
    *min = uint8_t((packed[s + 4] >> 4) | ((packed[s] >> 6) << 4));
  }
}

void dequantize_block_q4_k(const uint8_t* block, float* out) {
  uint16_t h[2];
  std::memcpy(h, block, 4);
  const float d = f16_to_f32(h[0]), dmin = f16_to_f32(h[1]);
  const uint8_t* qs = block + 16;
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    uint8_t sc, m;
    q4_k_scale_min(block + 4, s, &sc, &m);
    const float scale = d * float(sc), min = dmin * float(m);
    const uint8_t* q = qs + kSub * (s / 2);
    const int shift = (s % 2) * 4;
    for (int l = 0; l < kSub; ++l) out[kSub * s + l] = scale * float((q[l] >> shift) & 15) - min;
  }
}

void quantize_block_q4_k(const float* x, uint8_t* out) {
  float scales[kQ4_KSubBlocks], mins[kQ4_KSubBlocks], weights[kSub];
  float max_scale = 0, max_min = 0;
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    const float* xs = x + kSub * s;
    float sum_x2 = 0;
    for (int i = 0; i < kSub; ++i) sum_x2 += xs[i] * xs[i];
    const float rms = std::sqrt(sum_x2 / kSub);
    for (int i = 0; i < kSub; ++i) weights[i] = rms + std::fabs(xs[i]);  // large values matter more
    float offset;
    scales[s] = fit_sub_block(xs, weights, &offset);
    mins[s] = -offset;
    max_scale = std::max(max_scale, scales[s]);
    max_min = std::max(max_min, mins[s]);
  }
  const float inv_scale = max_scale > 0 ? kSixBits / max_scale : 0.0f;
  const float inv_min = max_min > 0 ? kSixBits / max_min : 0.0f;
  uint8_t ls[kQ4_KSubBlocks], lm[kQ4_KSubBlocks];
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    ls[s] = uint8_t(std::min(kSixBits, nearest(inv_scale * scales[s])));
    lm[s] = uint8_t(std::min(kSixBits, nearest(inv_min * mins[s])));
  }
  const uint16_t h[2] = {f32_to_f16(max_scale / kSixBits), f32_to_f16(max_min / kSixBits)};
  std::memcpy(out, h, 4);
  q4_k_pack_scale_min(ls, lm, out + 4);
  // The nibbles against the scales as stored (fp16 d times the 6-bit codes).
  const float d = f16_to_f32(h[0]), dmin = f16_to_f32(h[1]);
  uint8_t* qs = out + 16;
  std::memset(qs, 0, 128);
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    const float scale = d * float(ls[s]), min = dmin * float(lm[s]);
    const int shift = (s % 2) * 4;
    for (int l = 0; l < kSub; ++l) {
      const int q = scale != 0 ? clamp_level((x[kSub * s + l] + min) / scale, kLevels) : 0;
      qs[kSub * (s / 2) + l] |= uint8_t(q << shift);
    }
  }
}

}  // namespace infergate
