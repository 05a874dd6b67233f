// The k-quants' sub-block fit, shared by our Q4_K, Q2_K and Q5_K quantizers (q4_k_block.cc,
// k_quant_fit.cc), llama.cpp's method though not its bytes.
#pragma once

#include <algorithm>

namespace infergate {

inline constexpr int kMaxFitValues = 32;

// Round to nearest, ties to even, as nearbyint in the default rounding mode, for |v| < 2^22:
// adding and subtracting 1.5 * 2^23 leaves the rounded value. No libm call, so the fitting loops
// vectorize (quantizing the small model to Q4_K took 21 s through nearbyint).
inline float round_small(float v) {
  constexpr float kMagic = 12582912.0f;
  return (v + kMagic) - kMagic;
}
// Codes are small: values beyond 2^22 are clamped before rounding, which rounds them the same.
inline int nearest_code(float v) {
  return static_cast<int>(round_small(std::clamp(v, -4194304.0f, 4194304.0f)));
}
// v rounded into [0, top].
inline int clamp_code(float v, int top) {
  return static_cast<int>(round_small(std::clamp(v, 0.0f, float(top))));
}

// Scale and offset (offset <= 0, stored as -dmin * min) of n <= kMaxFitValues values minimizing
// sum w (scale * q + offset - x)^2 over codes q in [0, top], weights w = rms + |x| (large values
// matter more): steps from (max - min) / (top - 1) to (max - min) / (top + 0.9) are tried, and
// both refitted by least squares for each rounding. Returns the scale; *offset gets the offset.
float fit_scale_and_offset(const float* x, int n, int top, float* offset);

}  // namespace infergate
