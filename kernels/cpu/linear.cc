#include "kernels/cpu/linear.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

void check_weight(const Tensor& w) {
  if (w.shape().size() != 2) {
    throw std::invalid_argument("linear: weight must be 2-D, got " + w.shape_string());
  }
}

}  // namespace

void linear(const float* x, int64_t m, const Tensor& w, float* y, ThreadPool& pool) {
  check_weight(w);
  const int64_t n = w.dim(0), k = w.dim(1);
  // Rows of W are converted to fp32 once per tile and reused across all m inputs.
  constexpr int64_t kRowTile = 16;
  pool.parallel_for((n + kRowTile - 1) / kRowTile, [&](int64_t tb, int64_t te) {
    std::vector<float> rows(static_cast<size_t>(kRowTile * k));
    for (int64_t t = tb; t < te; ++t) {
      const int64_t r0 = t * kRowTile, r1 = std::min(n, r0 + kRowTile);
      to_f32(w, r0 * k, (r1 - r0) * k, rows.data());
      for (int64_t i = 0; i < m; ++i) {
        const float* xi = x + i * k;
        for (int64_t r = r0; r < r1; ++r) {
          const float* wr = rows.data() + (r - r0) * k;
          float acc = 0;
          for (int64_t j = 0; j < k; ++j) acc += xi[j] * wr[j];
          y[i * n + r] = acc;
        }
      }
    }
  });
}

void linear_reference(const float* x, int64_t m, const Tensor& w, float* y) {
  check_weight(w);
  const int64_t n = w.dim(0), k = w.dim(1);
  std::vector<float> row(static_cast<size_t>(k));
  for (int64_t r = 0; r < n; ++r) {
    to_f32(w, r * k, k, row.data());
    for (int64_t i = 0; i < m; ++i) {
      double acc = 0;
      for (int64_t j = 0; j < k; ++j) acc += double(x[i * k + j]) * double(row[j]);
      y[i * n + r] = float(acc);
    }
  }
}

}  // namespace infergate
