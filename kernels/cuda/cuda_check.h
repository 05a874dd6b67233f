// The error check every CUDA runtime call goes through: a failure becomes an exception that
// names the call and where it was made, so a GPU test failure says which call broke.
#pragma once

#include <cuda_runtime_api.h>

namespace infergate::cuda {

// Throws std::runtime_error "CALL failed at FILE:LINE: <CUDA's name>: <CUDA's message>" unless
// status is cudaSuccess (and clears the runtime's last error first).
void check(cudaError_t status, const char* call, const char* file, int line);

}  // namespace infergate::cuda

#define INFERGATE_CUDA_CHECK(call) ::infergate::cuda::check((call), #call, __FILE__, __LINE__)
