#include "engine/cuda/device_matrix.h"

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cpu/convert.h"

namespace infergate::cuda {

namespace {

// The one dtype every part has, when the GPU reads it; otherwise bf16.
GemmDType common_dtype(const std::vector<const Tensor*>& parts) {
  const std::optional<GemmDType> first = gemm_dtype_of((*parts.begin())->dtype());
  for (const Tensor* t : parts) {
    if (!first || t->dtype() != (*parts.begin())->dtype()) return GemmDType::kBF16;
  }
  return *first;
}

// Appends tensor `t` to `host` in `dtype` (a raw copy when it is already stored so).
void append(const Tensor& t, GemmDType dtype, std::vector<unsigned char>& host) {
  const size_t at = host.size(), bytes = dtype_bytes(tensor_dtype(dtype), t.numel());
  host.resize(at + bytes);
  if (t.dtype() == tensor_dtype(dtype)) {
    std::memcpy(host.data() + at, t.raw(), bytes);
    return;
  }
  std::vector<float> wide(static_cast<size_t>(t.numel()));
  to_f32(t, 0, t.numel(), wide.data());
  from_f32(wide.data(), t.numel(), tensor_dtype(dtype), host.data() + at);
}

}  // namespace

DeviceMatrix upload_matrix(const std::vector<const Tensor*>& parts) {
  DeviceMatrix m;
  if (parts.size() == 0 || !(*parts.begin())->defined()) return m;
  m.dtype = common_dtype(parts);
  m.cols = (*parts.begin())->dim(1);
  std::vector<unsigned char> host;
  for (const Tensor* t : parts) {
    if (t->shape().size() != 2 || t->dim(1) != m.cols) {
      throw std::invalid_argument("cuda backend: cannot fuse a " + t->shape_string() +
                                  " matrix with matrices of " + std::to_string(m.cols) +
                                  " columns");
    }
    m.rows += t->dim(0);
    append(*t, m.dtype, host);
  }
  m.data = DeviceBytes(host.size());
  m.data.copy_from_host(host.data());
  return m;
}

DeviceBuffer<float> upload_f32(const Tensor& t) {
  if (!t.defined()) return {};
  std::vector<float> wide(static_cast<size_t>(t.numel()));
  to_f32(t, 0, t.numel(), wide.data());
  return DeviceBuffer<float>(wide);
}

}  // namespace infergate::cuda
