// The CPU's prepared weights (forward_ops.h's OpWeight): projections packed for
// kernels/cpu/linear.h, and MoE routers read in place.
#pragma once

#include <utility>

#include "engine/forward/forward_ops.h"
#include "kernels/cpu/packed_weight.h"

namespace infergate {

// A projection packed for kernels/cpu/linear.h.
class CpuWeight final : public OpWeight {
 public:
  explicit CpuWeight(PackedWeight packed) : packed_(std::move(packed)) {}
  int64_t rows() const override { return packed_.rows(); }
  int64_t cols() const override { return packed_.cols(); }
  size_t nbytes() const override { return packed_.nbytes(); }
  const PackedWeight& packed() const { return packed_; }

 private:
  PackedWeight packed_;
};

// A router read in place, row-major, by the plain f32 GEMM.
class CpuRowMajorWeight final : public OpWeight {
 public:
  explicit CpuRowMajorWeight(const Tensor& t) : t_(t) {}
  int64_t rows() const override { return t_.shape()[0]; }
  int64_t cols() const override { return t_.shape()[1]; }
  size_t nbytes() const override { return 0; }  // counted with the model's row-major tensors
  const Tensor& tensor() const { return t_; }

 private:
  const Tensor& t_;
};

}  // namespace infergate
