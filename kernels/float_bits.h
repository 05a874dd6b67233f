// fp32 <-> bf16 / f16 rounding on raw bits, one definition for the CPU and the GPU: compiled by
// g++ for kernels/cpu and by nvcc as __host__ __device__ for kernels/cuda, so the GPU rounds bit
// for bit as the CPU (round to nearest even; a NaN keeps its sign and becomes quiet).
#pragma once

#include <cstdint>
#include <cstring>

#ifdef __CUDACC__
#define INFERGATE_HOST_DEVICE __host__ __device__
#else
#define INFERGATE_HOST_DEVICE
#endif

namespace infergate {

INFERGATE_HOST_DEVICE inline uint32_t float_bits(float f) {
#ifdef __CUDA_ARCH__
  return __float_as_uint(f);
#else
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
#endif
}

INFERGATE_HOST_DEVICE inline float bits_float(uint32_t bits) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(bits);
#else
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
#endif
}

INFERGATE_HOST_DEVICE inline float bf16_to_f32(uint16_t h) { return bits_float(uint32_t(h) << 16); }

INFERGATE_HOST_DEVICE inline uint16_t f32_to_bf16(float f) {
  uint32_t bits = float_bits(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return uint16_t((bits >> 16) | 0x40);  // quiet NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

INFERGATE_HOST_DEVICE inline uint16_t f32_to_f16(float f) {
  const uint32_t x = float_bits(f);
  const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // overflow (rounds to inf)
  if (abs < 0x38800000u) {                        // subnormal or zero in f16
    if (abs < 0x33000000u) return sign;           // below half the smallest subnormal
    const uint32_t exp = abs >> 23;
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - exp;  // 14 - (exp - 112)
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return sign | uint16_t(half);
  }
  uint32_t h = (abs - 0x38000000u) >> 13;
  const uint32_t rem = abs & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1u))) ++h;
  return sign | uint16_t(h);
}

}  // namespace infergate
