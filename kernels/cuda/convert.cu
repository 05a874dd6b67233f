#include <cuda_fp16.h>

#include <stdexcept>
#include <string>

#include "kernels/cuda/convert.h"
#include "kernels/cuda/launch.cuh"

namespace infergate::cuda {
namespace {

// The CPU's f32_to_bf16 (kernels/cpu/convert.h), on the device: integer rounding, so the two
// agree bit for bit by construction.
__device__ inline uint16_t f32_to_bf16_bits(float f) {
  uint32_t bits = __float_as_uint(f);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return uint16_t((bits >> 16) | 0x40u);  // quiet NaN
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return uint16_t(bits >> 16);
}

// The CPU's f32_to_f16 (kernels/cpu/convert.cc), line for line.
__device__ inline uint16_t f32_to_f16_bits(float f) {
  const uint32_t x = __float_as_uint(f);
  const uint16_t sign = uint16_t((x >> 16) & 0x8000u);
  const uint32_t abs = x & 0x7fffffffu;
  if (abs > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (abs >= 0x477ff000u) return sign | 0x7c00u;  // overflow (rounds to inf)
  if (abs < 0x38800000u) {                        // subnormal or zero in f16
    if (abs < 0x33000000u) return sign;           // below half the smallest subnormal
    const uint32_t exp = abs >> 23;
    const uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
    const uint32_t shift = 126 - exp;
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

__device__ inline float bf16_bits_to_f32(uint16_t h) { return __uint_as_float(uint32_t(h) << 16); }

// Widening is exact, so the hardware conversion is the CPU's for every finite value and
// infinity; NaN is built by hand to keep its payload as the CPU does.
__device__ inline float f16_bits_to_f32(uint16_t h) {
  if ((h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0) {
    return __uint_as_float((uint32_t(h & 0x8000u) << 16) | 0x7f800000u |
                           (uint32_t(h & 0x3ffu) << 13));
  }
  return __half2float(__ushort_as_half(h));
}

struct ToBf16 {
  __device__ uint16_t operator()(float f) const { return f32_to_bf16_bits(f); }
};
struct ToF16 {
  __device__ uint16_t operator()(float f) const { return f32_to_f16_bits(f); }
};
struct FromBf16 {
  __device__ float operator()(uint16_t h) const { return bf16_bits_to_f32(h); }
};
struct FromF16 {
  __device__ float operator()(uint16_t h) const { return f16_bits_to_f32(h); }
};

template <typename In, typename Out, typename Op>
__global__ void map_kernel(const In* in, Out* out, int64_t n, Op op) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += int64_t(gridDim.x) * blockDim.x) {
    out[i] = op(in[i]);
  }
}

template <typename In, typename Out, typename Op>
void launch_map(const In* in, Out* out, int64_t n, Op op, cudaStream_t stream) {
  map_kernel<<<detail::grid_for(n), detail::kThreads, 0, stream>>>(in, out, n, op);
  INFERGATE_CUDA_CHECK_LAUNCH();
}

void check_count(int64_t n, const char* where) {
  if (n < 0) {
    throw std::invalid_argument(std::string(where) + ": negative element count " +
                                std::to_string(n));
  }
}

}  // namespace

void convert_f32_to(const float* in, void* out, GemmDType dtype, int64_t n, cudaStream_t stream) {
  check_count(n, "convert_f32_to");
  if (n == 0) return;
  auto* bits = static_cast<uint16_t*>(out);
  switch (dtype) {
    case GemmDType::kF32:
      INFERGATE_CUDA_CHECK(
          cudaMemcpyAsync(out, in, size_t(n) * sizeof(float), cudaMemcpyDeviceToDevice, stream));
      return;
    case GemmDType::kF16:
      return launch_map(in, bits, n, ToF16{}, stream);
    case GemmDType::kBF16:
      return launch_map(in, bits, n, ToBf16{}, stream);
  }
}

void convert_to_f32(const void* in, GemmDType dtype, float* out, int64_t n, cudaStream_t stream) {
  check_count(n, "convert_to_f32");
  if (n == 0) return;
  const auto* bits = static_cast<const uint16_t*>(in);
  switch (dtype) {
    case GemmDType::kF32:
      INFERGATE_CUDA_CHECK(
          cudaMemcpyAsync(out, in, size_t(n) * sizeof(float), cudaMemcpyDeviceToDevice, stream));
      return;
    case GemmDType::kF16:
      return launch_map(bits, out, n, FromF16{}, stream);
    case GemmDType::kBF16:
      return launch_map(bits, out, n, FromBf16{}, stream);
  }
}

}  // namespace infergate::cuda
