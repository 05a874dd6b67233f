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
    case DType::kQ5_0:
      return "q5_0";
    case DType::kQ5_1:
      return "q5_1";
    case DType::kQ2_K:
      return "q2_k";
    case DType::kQ3_K:
      return "q3_k";
    case DType::kQ5_K:
      return "q5_k";
    case DType::kQ6_K:
      return "q6_k";
    case DType::kIQ4_NL:
      return "iq4_nl";
    case DType::kIQ4_XS:
      return "iq4_xs";
    case DType::kFP8:
      return "fp8";
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
  if (name == "q5_0") return DType::kQ5_0;
  if (name == "q5_1") return DType::kQ5_1;
  if (name == "q2_k" || name == "q2_K") return DType::kQ2_K;
  if (name == "q3_k" || name == "q3_K") return DType::kQ3_K;
  if (name == "q5_k" || name == "q5_K") return DType::kQ5_K;
  if (name == "q6_k" || name == "q6_K") return DType::kQ6_K;
  if (name == "iq4_nl") return DType::kIQ4_NL;
  if (name == "iq4_xs") return DType::kIQ4_XS;
  if (name == "fp8") return DType::kFP8;
  throw std::invalid_argument("unknown dtype '" + name +
                              "' (allowed: f32, f16, bf16, q8_0, q4_0, q4_1, q4_k, q5_0, q5_1, "
                              "q2_k, q3_k, q5_k, q6_k, iq4_nl, iq4_xs, fp8, w8a8, int8, fp8_e4m3)");
}

bool is_scaled_kv(DType dtype) { return dtype == DType::kI8 || dtype == DType::kF8E4M3; }

bool is_block_quantized(DType dtype) {
  switch (dtype) {
    case DType::kF32:
    case DType::kF16:
    case DType::kBF16:
    case DType::kI8:
    case DType::kF8E4M3:
      return false;
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    case DType::kW8A8:
    case DType::kFP8:
    INFERGATE_CASE_PLANE_DTYPES:
      return true;
  }
  return false;
}

int64_t dtype_block_elems(DType dtype) {
  switch (dtype) {
    case DType::kQ2_K:
    case DType::kQ3_K:
    case DType::kQ4_K:
    case DType::kQ5_K:
    case DType::kQ6_K:
    case DType::kIQ4_XS:
      return kQ4_KBlock;
    case DType::kFP8:
      return kFp8Block;
    default:
      return is_block_quantized(dtype) ? kQuantBlock : 1;
  }
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
    case DType::kQ4_K:
      return kQ4_KBlockBytes;
    case DType::kQ5_0:
      return kQ5_0BlockBytes;
    case DType::kQ5_1:
      return kQ5_1BlockBytes;
    case DType::kQ2_K:
      return kQ2_KBlockBytes;
    case DType::kQ3_K:
      return kQ3_KBlockBytes;
    case DType::kQ5_K:
      return kQ5_KBlockBytes;
    case DType::kQ6_K:
      return kQ6_KBlockBytes;
    case DType::kIQ4_NL:
      return kIq4_NlBlockBytes;
    case DType::kIQ4_XS:
      return kIq4_XsBlockBytes;
    case DType::kFP8:
      return kFp8BlockBytes;
    default:
      return 0;  // not a block format: dtype_bytes never asks
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
    case DType::kW8A8:
    case DType::kFP8:
    INFERGATE_CASE_PLANE_DTYPES : {
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
