#include "bench/programs/cuda/roofline.h"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bench/programs/cuda/cuda_bench_util.h"
#include "kernels/cuda/cublas_gemm.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_buffer.h"

namespace infergate::cuda_bench {
namespace {

constexpr int kReps = 10;

std::string device_name() {
  int device = 0;
  INFERGATE_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop{};
  INFERGATE_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  return prop.name;
}

// 1 GiB: far beyond L2 (50-60 MB on H100/H200), so DRAM is what is measured.
double measure_copy_bytes_per_second() {
  constexpr size_t kBytes = size_t(1) << 30;
  cuda::DeviceBytes src(kBytes), dst(kBytes);
  src.fill_bytes(1);
  Stream stream;
  const double s = best_seconds(stream.get(), kReps, [&] {
    INFERGATE_CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), src.data(), kBytes, cudaMemcpyDeviceToDevice, stream.get()));
  });
  return 2.0 * double(kBytes) / s;
}

double measure_bf16_gemm_flops() {
  constexpr int64_t kSize = 4096;
  const cuda::DeviceBuffer<uint16_t> x = random_bf16(kSize * kSize, 1);
  const cuda::DeviceBuffer<uint16_t> w = random_bf16(kSize * kSize, 2);
  cuda::DeviceBuffer<float> y(size_t(kSize * kSize));
  cuda::CublasGemm cublas;
  Stream stream;
  const double s = best_seconds(stream.get(), kReps, [&] {
    cublas.gemm(x.data(), w.data(), cuda::GemmDType::kBF16, y.data(), kSize, kSize, kSize,
                stream.get());
  });
  return 2.0 * double(kSize) * double(kSize) * double(kSize) / s;
}

Roofline measure() {
  Roofline r;
  r.device_name = device_name();
  r.copy_bytes_per_second = measure_copy_bytes_per_second();
  r.bf16_gemm_flops = measure_bf16_gemm_flops();
  return r;
}

}  // namespace

const Roofline& roofline() {
  static const Roofline measured = measure();
  return measured;
}

}  // namespace infergate::cuda_bench
