// Scalar element conversions between the storage dtypes and fp32 (round to nearest even).
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/float_bits.h"
#include "kernels/tensor.h"

namespace infergate {

// bf16_to_f32, f32_to_bf16 and f32_to_f16 are in kernels/float_bits.h (shared with the GPU).
float f16_to_f32(uint16_t h);
// The little-endian fp16 stored at `p` (a block's scale), unaligned.
inline float f16_at(const uint8_t* p) {
  uint16_t h;
  std::memcpy(&h, p, 2);
  return f16_to_f32(h);
}

// One block of a block format to its dtype_block_elems fp32 values, as llama.cpp dequantizes.
void dequantize_block(const uint8_t* block, DType dtype, float* out);
// Converts `count` elements starting at element `offset` of a tensor's buffer to fp32.
// For the block formats, offset and count must be whole blocks (dtype_block_elems).
void to_f32(const Tensor& t, int64_t offset, int64_t count, float* out);
// Converts `count` fp32 values to `dtype` storage (the block formats quantize per
// block: Q8_0, Q4_0 and Q4_1 exactly as llama.cpp's reference quantizers, Q4_K by its method;
// W8A8 takes the `count` values as one row, whose largest magnitude sets its one scale).
void from_f32(const float* in, int64_t count, DType dtype, void* out);
// A new owned tensor with the same shape and values stored as `dtype` (an fp8 matrix gets one
// scale per 128x128 tile: quantize_fp8_tiles).
Tensor convert_tensor(const Tensor& t, DType dtype);

}  // namespace infergate
