// Device memory owned RAII-style: cudaMalloc / cudaFree, never managed (unified) memory, so a
// host access to device data is a bug that faults instead of a silent page migration.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

namespace infergate::cuda {

// Untyped device allocation; moves, never copies.
class DeviceBytes {
 public:
  DeviceBytes() = default;
  explicit DeviceBytes(size_t bytes);
  ~DeviceBytes();
  DeviceBytes(DeviceBytes&& other) noexcept;
  DeviceBytes& operator=(DeviceBytes&& other) noexcept;
  DeviceBytes(const DeviceBytes&) = delete;
  DeviceBytes& operator=(const DeviceBytes&) = delete;

  void* data() const { return ptr_; }
  size_t bytes() const { return bytes_; }
  // Synchronous copies of the whole buffer (host must hold bytes() bytes).
  void copy_from_host(const void* host);
  void copy_to_host(void* host) const;
  // Every byte set to `value`: 0xFF poisons fp32 data with NaNs.
  void fill_bytes(int value);

 private:
  void release() noexcept;
  void* ptr_ = nullptr;
  size_t bytes_ = 0;
};

// `count` elements of T on the device.
template <typename T>
class DeviceBuffer {
  static_assert(std::is_trivially_copyable_v<T>, "device buffers hold plain data");

 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t count) : bytes_(count * sizeof(T)), count_(count) {}
  explicit DeviceBuffer(const std::vector<T>& host) : DeviceBuffer(host.size()) {
    bytes_.copy_from_host(host.data());
  }
  // A moved-from buffer is empty (size 0, no memory).
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : bytes_(std::move(other.bytes_)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    bytes_ = std::move(other.bytes_);
    count_ = std::exchange(other.count_, 0);
    return *this;
  }

  T* data() const { return static_cast<T*>(bytes_.data()); }
  size_t size() const { return count_; }
  void fill_bytes(int value) { bytes_.fill_bytes(value); }
  // Throws std::invalid_argument when host.size() != size().
  void copy_from_host(const std::vector<T>& host) {
    check_size(host.size());
    bytes_.copy_from_host(host.data());
  }
  std::vector<T> to_host() const {
    std::vector<T> host(count_);
    bytes_.copy_to_host(host.data());
    return host;
  }

 private:
  void check_size(size_t host_count) const;
  DeviceBytes bytes_;
  size_t count_ = 0;
};

void throw_size_mismatch(size_t device_count, size_t host_count);

template <typename T>
void DeviceBuffer<T>::check_size(size_t host_count) const {
  if (host_count != count_) throw_size_mismatch(count_, host_count);
}

}  // namespace infergate::cuda
