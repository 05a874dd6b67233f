// Internal: the element-wise loops of ops.h, written for the auto-vectorizer (independent
// partial sums, no aliasing the compiler must assume, a branch-free exp). Included by exactly
// one translation unit per ISA level, each built with that level's flags plus
// -fno-trapping-math -ffinite-math-only (kernels/CMakeLists.txt: so the exp's clamp is a vector
// min/max); internal linkage keeps the builds apart.
#pragma once

#include <cmath>
#include <cstring>

#include "kernels/cpu/ops_kernels.h"

namespace infergate::detail {
namespace {

void rms_norm_row(const float* x, const float* weight, int64_t dim, float eps, float* out) {
  double acc[8] = {};  // eight partial sums in double: vectorizes without reassociation
  int64_t i = 0;
  for (; i + 8 <= dim; i += 8) {
    for (int l = 0; l < 8; ++l) acc[l] += double(x[i + l]) * double(x[i + l]);
  }
  double ss = 0;
  for (; i < dim; ++i) ss += double(x[i]) * x[i];
  for (double v : acc) ss += v;
  const float inv = float(1.0 / std::sqrt(ss / double(dim) + eps));
  for (int64_t j = 0; j < dim; ++j) out[j] = x[j] * inv * weight[j];
}

void rope_half(float* __restrict lo, float* __restrict hi, const float* cos, const float* sin,
               int half) {
  for (int i = 0; i < half; ++i) {
    const float a = lo[i], b = hi[i];
    lo[i] = a * cos[i] - b * sin[i];
    hi[i] = b * cos[i] + a * sin[i];
  }
}

// exp for float, vectorizable (Cephes' polynomial on a reduced argument; ~1 ulp); x clamped
// to the finite range.
inline float exp_approx(float x) {
  // fmin/fmax, not a conditional: GCC would thread the clamped ends into paths of their own,
  // which if-conversion then computes for every lane, and x / (1 + e^88) is a denormal that
  // costs a microcode assist per vector (silu_mul ran 12x slower at AVX2; ops_test.cc checks).
  x = std::fmin(std::fmax(x, -87.0f), 88.0f);
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23: adding it rounds to an integer
  const float n = (x * 1.44269504088896341f + kRound) - kRound;
  float r = x - n * 0.693359375f;
  r = r + n * 2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * r * r + r + 1.0f;
  const int32_t e = (static_cast<int32_t>(n) + 127) << 23;
  float scale;
  std::memcpy(&scale, &e, 4);
  return p * scale;
}

void silu_mul(const float* gate, const float* up, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = gate[i] / (1.0f + exp_approx(-gate[i])) * up[i];
}

void add(float* x, const float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] += y[i];
}

constexpr OpsKernels kPortableOps = {&rms_norm_row, &rope_half, &silu_mul, &add};

}  // namespace
}  // namespace infergate::detail
