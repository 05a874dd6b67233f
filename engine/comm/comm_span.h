// A typed view of a buffer that a collective reads (ConstCommSpan) or writes (CommSpan): address,
// element count and element type. Made implicitly from any contiguous range of a CommElement
// (std::vector<float>, std::span<Float16>, std::array<int32_t, N>), or from raw parts for memory
// the type system does not describe (GPU buffers, tensors). The memory must be where the
// communicator expects it: host memory for MPI, device memory for NCCL (Communicator::space()).
#pragma once

#include <cstddef>
#include <ranges>
#include <type_traits>

#include "engine/comm/comm_dtype.h"
#include "kernels/tensor.h"

namespace infergate {

template <typename R>
concept CommRange = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> &&
    CommElement<std::remove_cv_t<std::ranges::range_value_t<R>>>;

template <typename R>
concept MutableCommRange =
    CommRange<R> && !std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>;

class CommSpan {
 public:
  CommSpan(void* data, size_t count, CommDType dtype) : data_(data), count_(count), dtype_(dtype) {}
  template <MutableCommRange R>
  CommSpan(R&& range)  // NOLINT(google-explicit-constructor): a view, as std::span
      : data_(std::ranges::data(range)),
        count_(std::ranges::size(range)),
        dtype_(CommDTypeOf<std::ranges::range_value_t<R>>::value) {}

  void* data() const { return data_; }
  size_t count() const { return count_; }
  CommDType dtype() const { return dtype_; }
  size_t bytes() const { return count_ * comm_dtype_size(dtype_); }
  // Elements [offset, offset + count).
  CommSpan subspan(size_t offset, size_t count) const {
    return {static_cast<char*>(data_) + offset * comm_dtype_size(dtype_), count, dtype_};
  }

 private:
  void* data_;
  size_t count_;
  CommDType dtype_;
};

class ConstCommSpan {
 public:
  ConstCommSpan(const void* data, size_t count, CommDType dtype)
      : data_(data), count_(count), dtype_(dtype) {}
  ConstCommSpan(CommSpan s)  // NOLINT(google-explicit-constructor)
      : data_(s.data()), count_(s.count()), dtype_(s.dtype()) {}
  template <CommRange R>
  ConstCommSpan(R&& range)  // NOLINT(google-explicit-constructor)
      : data_(std::ranges::data(range)),
        count_(std::ranges::size(range)),
        dtype_(CommDTypeOf<std::remove_cv_t<std::ranges::range_value_t<R>>>::value) {}

  const void* data() const { return data_; }
  size_t count() const { return count_; }
  CommDType dtype() const { return dtype_; }
  size_t bytes() const { return count_ * comm_dtype_size(dtype_); }
  ConstCommSpan subspan(size_t offset, size_t count) const {
    return {static_cast<const char*>(data_) + offset * comm_dtype_size(dtype_), count, dtype_};
  }

 private:
  const void* data_;
  size_t count_;
  CommDType dtype_;
};

// A whole tensor (f32, f16 or bf16; throws std::invalid_argument for q8_0).
inline CommSpan comm_span(Tensor& t) {
  return {t.mutable_raw(), static_cast<size_t>(t.numel()), comm_dtype_of(t.dtype())};
}
inline ConstCommSpan comm_span(const Tensor& t) {
  return {t.raw(), static_cast<size_t>(t.numel()), comm_dtype_of(t.dtype())};
}

}  // namespace infergate
