#include "kernels/tensor.h"

#include <stdexcept>

#include "kernels/zeroed_memory.h"

namespace infergate {

const char* dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return "f32";
    case DType::kF16:
      return "f16";
    case DType::kBF16:
      return "bf16";
    case DType::kQ8_0:
      return "q8_0";
    case DType::kQ4_0:
      return "q4_0";
    case DType::kQ4_1:
      return "q4_1";
    case DType::kQ4_K:
      return "q4_k";
    case DType::kW8A8:
      return "w8a8";
    case DType::kI8:
      return "int8";
    case DType::kF8E4M3:
      return "fp8_e4m3";
  }
  return "?";
}

DType parse_dtype(const std::string& name) {
  if (name == "f32" || name == "fp32" || name == "float32") return DType::kF32;
  if (name == "f16" || name == "fp16" || name == "float16") return DType::kF16;
  if (name == "bf16" || name == "bfloat16") return DType::kBF16;
  if (name == "q8_0") return DType::kQ8_0;
  if (name == "q4_0") return DType::kQ4_0;
  if (name == "q4_1") return DType::kQ4_1;
  if (name == "q4_k" || name == "q4_K") return DType::kQ4_K;
  if (name == "w8a8") return DType::kW8A8;
  if (name == "int8") return DType::kI8;
  if (name == "fp8_e4m3") return DType::kF8E4M3;
  throw std::invalid_argument(
      "unknown dtype '" + name +
      "' (allowed: f32, f16, bf16, q8_0, q4_0, q4_1, q4_k, w8a8, int8, fp8_e4m3)");
}

bool is_scaled_kv(DType dtype) { return dtype == DType::kI8 || dtype == DType::kF8E4M3; }

bool is_block_quantized(DType dtype) {
  return dtype == DType::kQ8_0 || dtype == DType::kQ4_0 || dtype == DType::kQ4_1 ||
         dtype == DType::kQ4_K || dtype == DType::kW8A8;
}

int64_t dtype_block_elems(DType dtype) {
  if (dtype == DType::kQ4_K) return kQ4_KBlock;
  return is_block_quantized(dtype) ? kQuantBlock : 1;
}

namespace {

size_t block_bytes(DType dtype) {
  switch (dtype) {
    case DType::kQ8_0:
    case DType::kW8A8:
      return kQ8_0BlockBytes;
    case DType::kQ4_0:
      return kQ4_0BlockBytes;
    case DType::kQ4_1:
      return kQ4_1BlockBytes;
    default:
      return kQ4_KBlockBytes;
  }
}

}  // namespace

size_t dtype_bytes(DType dtype, int64_t count) {
  switch (dtype) {
    case DType::kF32:
      return size_t(count) * 4;
    case DType::kF16:
    case DType::kBF16:
      return size_t(count) * 2;
    case DType::kI8:
    case DType::kF8E4M3:
      return size_t(count);
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    case DType::kW8A8: {
      const int64_t block = dtype_block_elems(dtype);
      if (count % block != 0) {
        throw std::invalid_argument(std::string(dtype_name(dtype)) + " needs a multiple of " +
                                    std::to_string(block) + " elements, got " +
                                    std::to_string(count));
      }
      return size_t(count / block) * block_bytes(dtype);
    }
  }
  return 0;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

std::string Tensor::shape_string() const {
  std::string s = "[";
  for (size_t i = 0; i < shape_.size(); ++i) s += (i ? ", " : "") + std::to_string(shape_[i]);
  return s + "]";
}

Tensor Tensor::zeros(DType dtype, std::vector<int64_t> shape) {
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  std::shared_ptr<void> memory = allocate_zeroed(t.nbytes());
  t.data_ = memory.get();
  t.owner_ = std::move(memory);
  return t;
}

Tensor Tensor::borrow(DType dtype, std::vector<int64_t> shape, const void* data,
                      std::shared_ptr<const void> owner) {
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  t.owner_ = std::move(owner);
  t.data_ = data;
  return t;
}

}  // namespace infergate
