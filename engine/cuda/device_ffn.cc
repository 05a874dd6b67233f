#include "engine/cuda/device_ffn.h"

#include "kernels/cuda/silu_mul.h"

namespace infergate::cuda {

DeviceFfn upload_ffn(const FfnWeights& f) {
  DeviceFfn d;
  if (!f.gate.defined()) return d;
  d.gate_up = upload_matrix({&f.gate, &f.up});
  d.down = upload_matrix({&f.down});
  return d;
}

void DeviceFfnRunner::run(DeviceGemm& gemm, const DeviceFfn& ffn, const float* in, int64_t rows,
                          float* out) {
  if (rows == 0) return;
  const int64_t inter = ffn.down.cols;
  float* gate_up = gate_up_.ensure(size_t(rows * 2 * inter));
  float* act = act_.ensure(size_t(rows * inter));
  gemm.project(in, rows, ffn.gate_up, gate_up);
  silu_mul_rows(gate_up, rows, inter, act, gemm.stream());
  gemm.project(act, rows, ffn.down, out);
}

}  // namespace infergate::cuda
