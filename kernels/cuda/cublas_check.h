// The error check every cuBLAS and cuBLASLt call goes through (both return cublasStatus_t): a
// failure becomes an exception naming the call and where it was made.
#pragma once

#include <cublas_api.h>

namespace infergate::cuda {

// Throws std::runtime_error "CALL failed at FILE:LINE: <status name>: <status string>" unless
// status is CUBLAS_STATUS_SUCCESS.
void cublas_check(cublasStatus_t status, const char* call, const char* file, int line);

}  // namespace infergate::cuda

// For cuBLAS and cuBLASLt calls alike.
#define INFERGATE_CUBLAS_CHECK(call) \
  ::infergate::cuda::cublas_check((call), #call, __FILE__, __LINE__)
