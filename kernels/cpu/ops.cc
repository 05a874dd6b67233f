#include "kernels/cpu/ops.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "kernels/cpu/convert.h"

namespace infergate {

void rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim, float eps,
              float* out) {
  for (int64_t r = 0; r < rows; ++r) {
    const float* xr = x + r * dim;
    float* orow = out + r * dim;
    double ss = 0;
    for (int64_t i = 0; i < dim; ++i) ss += double(xr[i]) * xr[i];
    const float inv = float(1.0 / std::sqrt(ss / double(dim) + eps));
    for (int64_t i = 0; i < dim; ++i) orow[i] = xr[i] * inv * weight[i];
  }
}

void rope_neox(float* x, const int32_t* positions, int64_t rows, int num_heads, int head_dim,
               float theta) {
  const int half = head_dim / 2;
  std::vector<float> inv_freq(static_cast<size_t>(half));
  for (int i = 0; i < half; ++i) {
    inv_freq[size_t(i)] = float(std::pow(double(theta), -2.0 * i / double(head_dim)));
  }
  std::vector<float> cos_v(static_cast<size_t>(half)), sin_v(static_cast<size_t>(half));
  for (int64_t r = 0; r < rows; ++r) {
    for (int i = 0; i < half; ++i) {
      const double angle = double(positions[r]) * double(inv_freq[size_t(i)]);
      cos_v[size_t(i)] = float(std::cos(angle));
      sin_v[size_t(i)] = float(std::sin(angle));
    }
    for (int h = 0; h < num_heads; ++h) {
      float* v = x + (r * num_heads + h) * head_dim;
      for (int i = 0; i < half; ++i) {
        const float a = v[i], b = v[i + half];
        v[i] = a * cos_v[size_t(i)] - b * sin_v[size_t(i)];
        v[i + half] = b * cos_v[size_t(i)] + a * sin_v[size_t(i)];
      }
    }
  }
}

void silu_mul(const float* gate, const float* up, int64_t n, float* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = gate[i] / (1.0f + std::exp(-gate[i])) * up[i];
}

void add_inplace(float* x, const float* y, int64_t n) {
  for (int64_t i = 0; i < n; ++i) x[i] += y[i];
}

void softmax_inplace(float* x, int64_t n) {
  if (n <= 0) return;
  const float mx = *std::max_element(x, x + n);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    x[i] = std::exp(x[i] - mx);
    sum += x[i];
  }
  const float inv = float(1.0 / sum);
  for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

void embedding_lookup(const Tensor& table, const int32_t* ids, int64_t n, float* out) {
  const int64_t vocab = table.dim(0), dim = table.dim(1);
  for (int64_t i = 0; i < n; ++i) {
    if (ids[i] < 0 || ids[i] >= vocab) {
      throw std::out_of_range("token id " + std::to_string(ids[i]) + " outside vocabulary [0, " +
                              std::to_string(vocab) + ")");
    }
    to_f32(table, int64_t(ids[i]) * dim, dim, out + i * dim);
  }
}

}  // namespace infergate
