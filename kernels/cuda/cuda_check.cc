#include "kernels/cuda/cuda_check.h"

#include <stdexcept>
#include <string>

namespace infergate::cuda {

void check(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  // Reset the thread's last-error state: a reported, non-sticky error must not resurface in the
  // next cudaGetLastError() (the launch check) and be blamed on an unrelated kernel.
  cudaGetLastError();
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                           ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

}  // namespace infergate::cuda
