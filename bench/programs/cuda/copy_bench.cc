// Device-to-device copy bandwidth (the roofline's memory figure, as a benchmark of its own).
#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "bench/programs/cuda/cuda_bench_util.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device_buffer.h"

namespace infergate::cuda_bench {
namespace {

void BM_DeviceCopy(benchmark::State& state) {
  const size_t bytes = size_t(state.range(0));
  cuda::DeviceBytes src(bytes), dst(bytes);
  src.fill_bytes(1);
  Stream stream;
  const double best = time_iterations(state, stream.get(), [&] {
    INFERGATE_CUDA_CHECK(
        cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, stream.get()));
  });
  set_bytes_counters(state, 2.0 * double(bytes), best);  // read + write
}
BENCHMARK(BM_DeviceCopy)
    ->Arg(int64_t(1) << 30)
    ->ArgName("bytes")
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace infergate::cuda_bench
