#include "kernels/cuda/device_buffer.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/cuda/cuda_check.h"

namespace infergate::cuda {

DeviceBytes::DeviceBytes(size_t bytes) : bytes_(bytes) {
  if (bytes > 0) INFERGATE_CUDA_CHECK(cudaMalloc(&ptr_, bytes));
}

DeviceBytes::~DeviceBytes() { release(); }

DeviceBytes::DeviceBytes(DeviceBytes&& other) noexcept
    : ptr_(std::exchange(other.ptr_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

DeviceBytes& DeviceBytes::operator=(DeviceBytes&& other) noexcept {
  if (this != &other) {
    release();
    ptr_ = std::exchange(other.ptr_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
  }
  return *this;
}

void DeviceBytes::release() noexcept {
  // A destructor cannot throw; a failing cudaFree here means the context is already broken and
  // the next checked call reports it.
  if (ptr_) cudaFree(ptr_);
  ptr_ = nullptr;
}

void DeviceBytes::copy_from_host(const void* host) {
  if (bytes_ > 0) INFERGATE_CUDA_CHECK(cudaMemcpy(ptr_, host, bytes_, cudaMemcpyHostToDevice));
}

void DeviceBytes::copy_to_host(void* host) const {
  if (bytes_ > 0) INFERGATE_CUDA_CHECK(cudaMemcpy(host, ptr_, bytes_, cudaMemcpyDeviceToHost));
}

void DeviceBytes::fill_bytes(int value) {
  if (bytes_ > 0) INFERGATE_CUDA_CHECK(cudaMemset(ptr_, value, bytes_));
}

void throw_size_mismatch(size_t device_count, size_t host_count) {
  throw std::invalid_argument("device buffer holds " + std::to_string(device_count) +
                              " elements, host vector " + std::to_string(host_count));
}

}  // namespace infergate::cuda
