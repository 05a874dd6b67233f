// Scalar element conversions between the storage dtypes and fp32 (round to nearest even).
#pragma once

#include <cstdint>
#include <cstring>

#include "kernels/tensor.h"

namespace infergate {

inline float bf16_to_f32(uint16_t h) {
  const uint32_t bits = uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline uint16_t f32_to_bf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return uint16_t((bits >> 16) | 0x40);  // quiet NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

float f16_to_f32(uint16_t h);
uint16_t f32_to_f16(float f);

// Converts `count` elements starting at element `offset` of a tensor's buffer to fp32.
// For Q8_0, offset and count must be multiples of 32.
void to_f32(const Tensor& t, int64_t offset, int64_t count, float* out);
// Converts `count` fp32 values to `dtype` storage (Q8_0 quantizes per 32-block, as llama.cpp).
void from_f32(const float* in, int64_t count, DType dtype, void* out);
// A new owned tensor with the same shape and values stored as `dtype`.
Tensor convert_tensor(const Tensor& t, DType dtype);

}  // namespace infergate
