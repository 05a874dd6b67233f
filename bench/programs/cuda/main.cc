// infergate_cuda_micro: measures this GPU's roofline first (so every "of_roofline" divides
// figures from one process and one device), records it in the benchmark context, then runs.
// Without a CUDA device it says why and exits 77 (skipped, as the GPU tests).
#include <benchmark/benchmark.h>

#include <cstdio>
#include <exception>
#include <string>

#include "bench/programs/cuda/roofline.h"
#include "kernels/cuda/device.h"

int main(int argc, char** argv) {
  std::string why;
  if (infergate::cuda::cuda_device_count(&why) == 0) {
    std::fprintf(stderr, "infergate_cuda_micro: no CUDA device (%s)\n", why.c_str());
    return 77;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  try {
    const infergate::cuda_bench::Roofline& r = infergate::cuda_bench::roofline();
    benchmark::AddCustomContext("device", r.device_name);
    benchmark::AddCustomContext("roofline_copy_GBps",
                                std::to_string(r.copy_bytes_per_second / 1e9));
    benchmark::AddCustomContext("roofline_bf16_gemm_TFLOPs",
                                std::to_string(r.bf16_gemm_flops / 1e12));
    benchmark::RunSpecifiedBenchmarks();
  } catch (const std::exception& e) {  // a failed CUDA or cuBLAS call, named
    std::fprintf(stderr, "infergate_cuda_micro: %s\n", e.what());
    benchmark::Shutdown();
    return 1;
  }
  benchmark::Shutdown();
  return 0;
}
