// SiLU-and-multiply on the GPU; twin of kernels/cpu/ops.h's silu_mul_rows. Device pointers;
// queued on `stream`.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace infergate::cuda {

// out[r, :] = silu(gate_up[r, :width]) * gate_up[r, width:2*width]. Unlike the CPU version,
// out must not alias gate_up: threads of later rows would overwrite inputs still to be read.
void silu_mul_rows(const float* gate_up, int64_t rows, int64_t width, float* out,
                   cudaStream_t stream);

}  // namespace infergate::cuda
