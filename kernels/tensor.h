// A dense, row-major tensor: a dtype, a shape and a byte buffer it owns or borrows (mmap).
// Knows nothing about models; the engine builds its weights and caches from these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace infergate {

// Element types. Q8_0, Q4_0 and Q4_1 are llama.cpp's block formats (ggml-common.h), bit for
// bit: a block of 32 values is an fp16 scale d then 32 int8 q (Q8_0: value = d * q), or 16 bytes
// of nibbles (Q4_0: value j < 16 = d * ((qs[j] & 15) - 8), value j + 16 = d * ((qs[j] >> 4) -
// 8)), or fp16 d and fp16 m then 16 bytes of nibbles (Q4_1, group-wise asymmetric INT4 with
// group 32: value j < 16 = d * (qs[j] & 15) + m, value j + 16 = d * (qs[j] >> 4) + m).
// Q4_K is llama.cpp's k-quant super-block of 256 values (kernels/cpu/q4_k_block.h): fp16 d and
// dmin, eight 6-bit scales and minimums packed in 12 bytes, 128 bytes of nibbles; sub-block s of
// 32 values is d * scale_s * nibble - dmin * min_s.
// W8A8 is per-channel int8: Q8_0's bytes with one fp16 scale shared by every block of a row (so a
// GGUF export is a valid Q8_0 tensor), computed against per-token int8 activations with one
// integer dot product per row (quant_linear.h).
// Q5_0, Q5_1, Q2_K, Q3_K, Q5_K, Q6_K, IQ4_NL and IQ4_XS are llama.cpp's other block formats of
// its standard quantization presets, bit for bit (layouts in kernels/cpu/q5_blocks.h,
// k_quant_blocks.h and iq4_blocks.h).
// I8 and F8E4M3 (OCP FP8: 1 sign, 4 exponent bits with bias 7, 3 mantissa bits, no infinities,
// largest 448) are KV cache formats: each row of head_dim codes has an fp32 scale beside it
// (paged_attention.h). F8E4M3 is also the bare codes of a checkpoint's fp8 weight as
// safetensors stores it (its scales in another tensor), which the loader turns into FP8.
// FP8 is an fp8 weight: blocks of 128 values, each an fp32 scale then 128 e4m3 codes
// (kernels/cpu/fp8_blocks.h), value = scale * e4m3(code); computed in fp32 (fp8_linear.h).
enum class DType : uint8_t {
  kF32,
  kF16,
  kBF16,
  kQ8_0,
  kQ4_0,
  kI8,
  kF8E4M3,
  kQ4_1,
  kQ4_K,
  kW8A8,
  kQ5_0,
  kQ5_1,
  kQ2_K,
  kQ3_K,
  kQ5_K,
  kQ6_K,
  kIQ4_NL,
  kIQ4_XS,
  kFP8,
};

// The case labels of the formats above beyond Q4_K, for the switches that treat them as every
// other block format (one list, so that a new one is added once).
#define INFERGATE_CASE_PLANE_DTYPES \
  case DType::kQ5_0:                \
  case DType::kQ5_1:                \
  case DType::kQ2_K:                \
  case DType::kQ3_K:                \
  case DType::kQ5_K:                \
  case DType::kQ6_K:                \
  case DType::kIQ4_NL:              \
  case DType::kIQ4_XS

// Elements per block of the block formats (one for the others: every element is its own block).
inline constexpr int64_t kQuantBlock = 32;
inline constexpr size_t kQ8_0BlockBytes = 34;
inline constexpr size_t kQ4_0BlockBytes = 18;
inline constexpr size_t kQ4_1BlockBytes = 20;
inline constexpr int64_t kQ4_KBlock = 256;  // a k-quant super-block: 8 sub-blocks of 32
inline constexpr size_t kQ4_KBlockBytes = 144;
inline constexpr size_t kQ5_0BlockBytes = 22;
inline constexpr size_t kQ5_1BlockBytes = 24;
inline constexpr size_t kQ2_KBlockBytes = 84;
inline constexpr size_t kQ3_KBlockBytes = 110;
inline constexpr size_t kQ5_KBlockBytes = 176;
inline constexpr size_t kQ6_KBlockBytes = 210;
inline constexpr size_t kIq4_NlBlockBytes = 18;
inline constexpr size_t kIq4_XsBlockBytes = 136;
inline constexpr int64_t kFp8Block = 128;  // one scale per 128 values: a DeepSeek block's row
inline constexpr size_t kFp8BlockBytes = 4 + kFp8Block;

const char* dtype_name(DType dtype);
// Parses "f32" | "f16" | "bf16" | "q8_0" | "q4_0" | "q4_1" | "q4_k" | "w8a8" | "int8" | "fp8_e4m3"
// | "q5_0" | "q5_1" | "q2_k" | "q3_k" | "q5_k" | "q6_k" | "iq4_nl" | "iq4_xs" | "fp8";
// throws std::invalid_argument naming the allowed values.
DType parse_dtype(const std::string& name);
// True for the block formats (every weight type but F32, F16 and BF16), whose rows must be whole
// blocks.
bool is_block_quantized(DType dtype);
// True for the scaled KV formats (int8, fp8_e4m3): codes times a per-row scale.
bool is_scaled_kv(DType dtype);
// Elements per block: kQ4_KBlock for the super-block formats (Q2_K, Q3_K, Q4_K, Q5_K, Q6_K,
// IQ4_XS), kFp8Block for FP8, kQuantBlock for the other block formats, else 1.
int64_t dtype_block_elems(DType dtype);
// Bytes taken by `count` consecutive elements (count must be whole blocks for the block
// formats; std::invalid_argument otherwise).
size_t dtype_bytes(DType dtype, int64_t count);

class Tensor {
 public:
  Tensor() = default;
  // Owned, zero-filled storage (64-byte aligned).
  static Tensor zeros(DType dtype, std::vector<int64_t> shape);
  // Borrowed storage kept alive by `owner` (for example a memory-mapped file).
  static Tensor borrow(DType dtype, std::vector<int64_t> shape, const void* data,
                       std::shared_ptr<const void> owner);

  bool defined() const { return data_ != nullptr; }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int64_t dim(size_t i) const { return shape_.at(i); }
  int64_t numel() const;
  size_t nbytes() const { return dtype_bytes(dtype_, numel()); }
  std::string shape_string() const;

  const void* raw() const { return data_; }
  void* mutable_raw() { return const_cast<void*>(data_); }
  template <typename T>
  const T* data() const {
    return static_cast<const T*>(data_);
  }
  template <typename T>
  T* mutable_data() {
    return static_cast<T*>(const_cast<void*>(data_));
  }

 private:
  DType dtype_ = DType::kF32;
  std::vector<int64_t> shape_;
  std::shared_ptr<const void> owner_;
  const void* data_ = nullptr;
};

}  // namespace infergate
