// The GPU's prepared weight (forward_ops.h's OpWeight): a projection on the device in the
// dtype its GEMM reads.
#pragma once

#include <utility>

#include "engine/cuda/device_matrix.h"
#include "engine/forward/forward_ops.h"

namespace infergate::cuda {

// A projection on the device.
class CudaWeight final : public OpWeight {
 public:
  explicit CudaWeight(DeviceMatrix m) : m_(std::move(m)) {}
  int64_t rows() const override { return m_.rows; }
  int64_t cols() const override { return m_.cols; }
  size_t nbytes() const override { return m_.data.bytes(); }
  const DeviceMatrix& matrix() const { return m_; }

 private:
  DeviceMatrix m_;
};

inline const DeviceMatrix& matrix_of(const OpWeight& w) {
  return static_cast<const CudaWeight&>(w).matrix();
}

}  // namespace infergate::cuda
