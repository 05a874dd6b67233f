// Shared helpers of the kernel tests: seeded random inputs (never zero) and tolerances.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/cpu_features.h"
#include "kernels/tensor.h"

namespace infergate::testing {

// Uniform in [-1, -0.05] U [0.05, 1]: no zeros, so a skipped term cannot go unnoticed.
inline std::vector<float> random_values(int64_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> mag(0.05f, 1.0f);
  std::vector<float> v(static_cast<size_t>(count));
  for (float& x : v) x = (rng() & 1u) ? mag(rng) : -mag(rng);
  return v;
}

inline Tensor random_tensor(DType dtype, std::vector<int64_t> shape, uint32_t seed) {
  Tensor f = Tensor::zeros(DType::kF32, shape);
  const std::vector<float> v = random_values(f.numel(), seed);
  std::copy(v.begin(), v.end(), f.mutable_data<float>());
  return dtype == DType::kF32 ? f : convert_tensor(f, dtype);
}

// Requires |got - want| <= rel * sum_j |x_j w_rj| at every y[i, r] (y = x W^T, m rows of x):
// the error a kernel may add, relative to the magnitude of the terms it sums.
inline void require_close(const float* x, const Tensor& w, int64_t m, const std::vector<float>& got,
                          const std::vector<float>& want, const std::string& what, double rel) {
  const int64_t n = w.dim(0), k = w.dim(1);
  std::vector<float> row(static_cast<size_t>(k));
  for (int64_t r = 0; r < n; ++r) {
    to_f32(w, r * k, k, row.data());
    for (int64_t i = 0; i < m; ++i) {
      double mag = 0;
      for (int64_t j = 0; j < k; ++j) mag += std::fabs(double(x[i * k + j]) * row[size_t(j)]);
      const size_t at = size_t(i * n + r);
      INFO(what << " at [" << i << ", " << r << "]: " << got[at] << " vs " << want[at]);
      REQUIRE(std::fabs(double(got[at]) - want[at]) <= rel * mag + 1e-30);
    }
  }
}

// Every ISA level this CPU can run, lowest first; restores the detected level on destruction.
class IsaLevels {
 public:
  IsaLevels() {
#if defined(__aarch64__)
    levels_ = {IsaLevel::kGeneric, IsaLevel::kNeon};  // NEON is baseline on aarch64
#else
    for (IsaLevel l : {IsaLevel::kGeneric, IsaLevel::kAvx2, IsaLevel::kAvx512, IsaLevel::kAmx}) {
      if (l <= detected_isa()) levels_.push_back(l);
    }
#endif
  }
  ~IsaLevels() { set_isa_level(detected_isa()); }
  const std::vector<IsaLevel>& levels() const { return levels_; }

 private:
  std::vector<IsaLevel> levels_;
};

}  // namespace infergate::testing
