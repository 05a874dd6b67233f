#include "engine/cuda/device_ffn.h"

#include "kernels/cuda/silu_mul.h"

namespace infergate::cuda {

void DeviceFfnRunner::run(DeviceGemm& gemm, const DeviceMatrix& gate_up_w,
                          const DeviceMatrix& down_w, const float* in, int64_t rows, float* out) {
  if (rows == 0) return;
  const int64_t inter = down_w.cols;
  float* gate_up = gate_up_.ensure(size_t(rows * 2 * inter));
  float* act = act_.ensure(size_t(rows * inter));
  gemm.project(in, rows, gate_up_w, gate_up);
  silu_mul_rows(gate_up, rows, inter, act, gemm.stream());
  gemm.project(act, rows, down_w, out);
}

}  // namespace infergate::cuda
