// Scalar element conversions between the storage dtypes and fp32 (round to nearest even).
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/float_bits.h"
#include "kernels/tensor.h"

namespace infergate {

// bf16_to_f32, f32_to_bf16 and f32_to_f16 are in kernels/float_bits.h (shared with the GPU).
float f16_to_f32(uint16_t h);

// One block of a block format (Q8_0 or Q4_0) to its 32 fp32 values, as llama.cpp dequantizes.
void dequantize_block(const uint8_t* block, DType dtype, float* out);
// Converts `count` elements starting at element `offset` of a tensor's buffer to fp32.
// For the block formats, offset and count must be multiples of 32.
void to_f32(const Tensor& t, int64_t offset, int64_t count, float* out);
// Converts `count` fp32 values to `dtype` storage (the block formats quantize per
// 32-block exactly as llama.cpp's reference quantizers).
void from_f32(const float* in, int64_t count, DType dtype, void* out);
// A new owned tensor with the same shape and values stored as `dtype`.
Tensor convert_tensor(const Tensor& t, DType dtype);

}  // namespace infergate
