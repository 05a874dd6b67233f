#include <cuda_fp16.h>

#include <stdexcept>
#include <string>

#include "kernels/cuda/convert.h"
#include "kernels/cuda/launch.cuh"
#include "kernels/float_bits.h"

namespace infergate::cuda {
namespace {

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
  __device__ uint16_t operator()(float f) const { return f32_to_bf16(f); }
};
struct ToF16 {
  __device__ uint16_t operator()(float f) const { return f32_to_f16(f); }
};
struct FromBf16 {
  __device__ float operator()(uint16_t h) const { return bf16_to_f32(h); }
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

// Checks n; true when nothing is left to convert: no elements, or f32 (a device copy).
bool trivial_conversion(const void* in, void* out, GemmDType dtype, int64_t n, cudaStream_t stream,
                        const char* where) {
  if (n < 0) {
    throw std::invalid_argument(std::string(where) + ": negative element count " +
                                std::to_string(n));
  }
  if (n > 0 && dtype == GemmDType::kF32) {
    INFERGATE_CUDA_CHECK(
        cudaMemcpyAsync(out, in, size_t(n) * sizeof(float), cudaMemcpyDeviceToDevice, stream));
  }
  return n == 0 || dtype == GemmDType::kF32;
}

}  // namespace

void convert_f32_to(const float* in, void* out, GemmDType dtype, int64_t n, cudaStream_t stream) {
  if (trivial_conversion(in, out, dtype, n, stream, "convert_f32_to")) return;
  auto* bits = static_cast<uint16_t*>(out);
  if (dtype == GemmDType::kF16) {
    launch_map(in, bits, n, ToF16{}, stream);
  } else {
    launch_map(in, bits, n, ToBf16{}, stream);
  }
}

void convert_to_f32(const void* in, GemmDType dtype, float* out, int64_t n, cudaStream_t stream) {
  if (trivial_conversion(in, out, dtype, n, stream, "convert_to_f32")) return;
  const auto* bits = static_cast<const uint16_t*>(in);
  if (dtype == GemmDType::kF16) {
    launch_map(bits, out, n, FromF16{}, stream);
  } else {
    launch_map(bits, out, n, FromBf16{}, stream);
  }
}

}  // namespace infergate::cuda
