#include "kernels/cpu/k_quant_fit.h"

// Quantizers of Q2_K, Q3_K and Q5_K super-blocks by our own fit (Q4_K's too), not byte for byte
// as llama.cpp's: per sub-block the least-squares scale (and minimum) over a grid
// of candidate steps, then the sub-block factors coded against the largest and the values
// requantized with the coded factors.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cpu/block_codes.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/k_quant_blocks.h"

namespace infergate {

namespace {

constexpr int kValues = 256;
constexpr int kSteps = 20;  // candidate steps tried per sub-block

}  // namespace

float fit_scale_and_offset(const float* x, int n, int top, float* offset) {
  float lo = std::min(0.0f, *std::min_element(x, x + n));  // stored as -dmin min, min >= 0
  const float hi = *std::max_element(x, x + n);
  *offset = lo;
  if (hi <= lo) return 0.0f;
  float w[kMaxFitValues], sum_w = 0, sum_x = 0, sum_x2 = 0;
  for (int i = 0; i < n; ++i) sum_x2 += x[i] * x[i];
  const float rms = std::sqrt(sum_x2 / float(n));
  for (int i = 0; i < n; ++i) {
    w[i] = rms + std::fabs(x[i]);  // large values matter more
    sum_w += w[i];
    sum_x += w[i] * x[i];
  }
  // Weighted squared error of the rounding made with step 1 / inv, under (scale, off).
  const auto error = [&](float scale, float off, float inv) {
    float e = 0;
    for (int i = 0; i < n; ++i) {
      const float diff = scale * float(clamp_code(inv * (x[i] - lo), top)) + off - x[i];
      e += w[i] * diff * diff;
    }
    return e;
  };
  float best_scale = (hi - lo) / float(top);
  float best = error(best_scale, lo, float(top) / (hi - lo));
  for (int step = 0; step <= kSteps; ++step) {
    const float inv = (-1.0f + 0.1f * float(step) + float(top)) / (hi - lo);
    float sl = 0, sl2 = 0, sxl = 0;
    for (int i = 0; i < n; ++i) {
      const float l = float(clamp_code(inv * (x[i] - lo), top));
      sl += w[i] * l;
      sl2 += w[i] * l * l;
      sxl += w[i] * l * x[i];
    }
    const float det = sum_w * sl2 - sl * sl;
    if (det <= 0) continue;
    float scale = (sum_w * sxl - sum_x * sl) / det, off = (sl2 * sum_x - sl * sxl) / det;
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

namespace {

// Q2_K (16 values, codes <= 3, 4-bit factors) and Q5_K (32, codes <= 31, 6-bit factors):
// w = d scale_s q - dmin min_s.
void quantize_asymmetric(DType dtype, const float* x, int sub, int top, int factor_top,
                         uint8_t* out) {
  const int subs = kValues / sub;
  float scales[16], mins[16], max_scale = 0, max_min = 0;
  for (int s = 0; s < subs; ++s) {
    float offset;
    scales[s] = fit_scale_and_offset(x + sub * s, sub, top, &offset);
    mins[s] = -offset;
    max_scale = std::max(max_scale, scales[s]);
    max_min = std::max(max_min, mins[s]);
  }
  BlockCodes codes;
  codes.d = f32_to_f16(max_scale / float(factor_top));
  codes.dmin = f32_to_f16(max_min / float(factor_top));
  const float d = f16_to_f32(codes.d), dmin = f16_to_f32(codes.dmin);
  for (int s = 0; s < subs; ++s) {
    codes.scale[s] = int8_t(d > 0 ? std::min(factor_top, nearest_code(scales[s] / d)) : 0);
    codes.min[s] = uint8_t(dmin > 0 ? std::min(factor_top, nearest_code(mins[s] / dmin)) : 0);
    const float scale = d * float(codes.scale[s]), min = dmin * float(codes.min[s]);
    for (int i = 0; i < sub; ++i) {
      const float v = x[sub * s + i];
      codes.q[sub * s + i] = uint8_t(scale != 0 ? clamp_code((v + min) / scale, top) : 0);
    }
  }
  encode_block_codes(dtype, codes, out);
}

}  // namespace

void quantize_block_q2_k(const float* x, uint8_t* out) {
  quantize_asymmetric(DType::kQ2_K, x, 16, 3, 15, out);
}

void quantize_block_q5_k(const float* x, uint8_t* out) {
  quantize_asymmetric(DType::kQ5_K, x, 32, 31, 63, out);
}

// Q3_K: w = d scale_s (q - 4), codes q - 4 in [-4, 3], scales in [-32, 31]: per 16 values the
// step that puts the value of largest magnitude at -4, coded against the largest step at -32.
void quantize_block_q3_k(const float* x, uint8_t* out) {
  float steps[16], max_step = 0;
  for (int s = 0; s < 16; ++s) {
    float max = 0;
    for (int i = 0; i < 16; ++i) {
      if (std::fabs(x[16 * s + i]) > std::fabs(max)) max = x[16 * s + i];
    }
    steps[s] = max / -4.0f;
    if (std::fabs(steps[s]) > std::fabs(max_step)) max_step = steps[s];
  }
  BlockCodes codes;
  codes.d = f32_to_f16(max_step / -32.0f);
  const float d = f16_to_f32(codes.d);
  for (int s = 0; s < 16; ++s) {
    codes.scale[s] = int8_t(d != 0 ? std::clamp(nearest_code(steps[s] / d), -32, 31) : 0);
    const float step = d * float(codes.scale[s]);
    for (int i = 0; i < 16; ++i) {
      const int q = step != 0 ? std::clamp(nearest_code(x[16 * s + i] / step), -4, 3) : 0;
      codes.q[16 * s + i] = uint8_t(q + 4);
    }
  }
  encode_block_codes(DType::kQ3_K, codes, out);
}

}  // namespace infergate
