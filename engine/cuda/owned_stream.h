// A CUDA stream that lives as long as its owner: the steps' kernels are queued on it, and it is
// destroyed after the model and cache that use it.
#pragma once

#include <cuda_runtime_api.h>

#include "kernels/cuda/cuda_check.h"

namespace infergate::cuda {

class OwnedStream {
 public:
  OwnedStream() { INFERGATE_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~OwnedStream() { cudaStreamDestroy(s_); }
  OwnedStream(const OwnedStream&) = delete;
  OwnedStream& operator=(const OwnedStream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

}  // namespace infergate::cuda
