// Helpers of the CUDA kernel tests: fresh seeds, a stream, and the comparison with the CPU twin.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cuda/cuda_check.h"

namespace infergate::testing {

// Fresh inputs every run (the seed is reported with INFO so a failure can be replayed).
inline uint32_t fresh_seed() { return std::random_device{}(); }

// Normwise relative error max|actual - expected| / max|expected|; +inf when actual holds a
// NaN or infinity (a poisoned output the kernel never wrote) or the sizes differ.
inline double relative_error(const std::vector<float>& actual, const std::vector<float>& expected) {
  if (actual.size() != expected.size()) return std::numeric_limits<double>::infinity();
  double diff = 0, scale = 0;
  for (size_t i = 0; i < actual.size(); ++i) {
    if (!std::isfinite(actual[i])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::fabs(double(actual[i]) - double(expected[i])));
    scale = std::max(scale, std::fabs(double(expected[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

constexpr double kF32Tolerance = 1e-5;
constexpr int kPoison = 0xFF;  // every byte 0xFF: an fp32 NaN

// A non-default stream, so the kernels are seen to honour the one they are given.
class TestStream {
 public:
  TestStream() { INFERGATE_CUDA_CHECK(cudaStreamCreate(&stream_)); }
  ~TestStream() { cudaStreamDestroy(stream_); }
  TestStream(const TestStream&) = delete;
  TestStream& operator=(const TestStream&) = delete;
  cudaStream_t get() const { return stream_; }
  // Kernel faults surface here, named.
  void sync() const { INFERGATE_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace infergate::testing
