// Element conversions between fp32 and the GEMM operand types on the GPU; twins of
// kernels/cpu/convert.h's f32_to_bf16 / f32_to_f16 / bf16_to_f32 / f16_to_f32, bit for bit.
// Device pointers; queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "kernels/cuda/gemm_dtype.h"

namespace infergate::cuda {

// out[i] = in[i] rounded to nearest even in `dtype` (kF32: a plain copy). Overflow rounds to
// infinity, tiny values to subnormals or zero. NaN follows the CPU rather than CUDA's
// intrinsics (which give the canonical 0x7fff): the sign is kept and the result is quiet, bf16
// keeping the top payload bits (bits >> 16 | 0x40), f16 becoming sign | 0x7e00.
// Throws std::invalid_argument for n < 0.
void convert_f32_to(const float* in, void* out, GemmDType dtype, int64_t n, cudaStream_t stream);

// out[i] = in[i] widened to fp32, exactly (NaN payloads kept, as the CPU). kF32: a plain copy.
void convert_to_f32(const void* in, GemmDType dtype, float* out, int64_t n, cudaStream_t stream);

}  // namespace infergate::cuda
