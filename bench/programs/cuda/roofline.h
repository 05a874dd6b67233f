// What this process's GPU does at best, measured once: the denominators of every benchmark's
// "of_roofline" counter, so kernels are judged against the hardware as it runs here (clocks,
// power limit, MIG slice), not a datasheet.
#pragma once

#include <string>

namespace infergate::cuda_bench {

struct Roofline {
  std::string device_name;
  // A 1 GiB device-to-device cudaMemcpyAsync, counting read + write bytes (2 x size); the best
  // of several after a warm-up.
  double copy_bytes_per_second = 0;
  // cuBLAS bf16 GEMM at 4096^3 (fp32 accumulate and output, CublasGemm::gemm), 2mnk FLOPs over
  // the best of several runs.
  double bf16_gemm_flops = 0;
};

// Measured on the current device at the first call (a second or so), then cached.
const Roofline& roofline();

}  // namespace infergate::cuda_bench
