#include "kernels/cuda/cublas_check.h"

#include <stdexcept>
#include <string>

#include "kernels/cuda/cublas_library.h"

namespace infergate::cuda {

void cublas_check(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status == CUBLAS_STATUS_SUCCESS) return;
  throw std::runtime_error(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                           ": " + cublas_library().cublasGetStatusName(status) + ": " +
                           cublas_library().cublasGetStatusString(status));
}

}  // namespace infergate::cuda
