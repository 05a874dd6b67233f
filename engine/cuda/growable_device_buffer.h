// A device buffer that grows to the largest size asked for and keeps it: the executor's
// per-step scratch and metadata, so a step does not pay a cudaMalloc for every array.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_buffer.h"

namespace infergate::cuda {

template <typename T>
class GrowableDeviceBuffer {
 public:
  // At least `count` elements; earlier contents are lost when it grows. Growing frees the old
  // allocation, which cudaFree orders after the work already queued on the device.
  T* ensure(size_t count) {
    if (count * sizeof(T) > bytes_.bytes()) bytes_ = DeviceBytes(count * sizeof(T));
    return data();
  }
  // Queues a copy of `host` on `stream`; pageable sources are staged by the runtime before
  // this returns, so `host` may be freed afterwards.
  T* upload(const std::vector<T>& host, cudaStream_t stream) {
    ensure(host.size());
    if (!host.empty()) {
      INFERGATE_CUDA_CHECK(cudaMemcpyAsync(data(), host.data(), host.size() * sizeof(T),
                                           cudaMemcpyHostToDevice, stream));
    }
    return data();
  }
  T* data() const { return static_cast<T*>(bytes_.data()); }
  size_t bytes() const { return bytes_.bytes(); }

 private:
  DeviceBytes bytes_;
};

}  // namespace infergate::cuda
