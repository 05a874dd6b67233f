// Shared helpers of the kernel tests: seeded random inputs (never zero) and tolerances.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
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
