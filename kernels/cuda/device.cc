#include "kernels/cuda/device.h"

#include <cuda_runtime_api.h>

namespace infergate::cuda {

int cuda_device_count(std::string* why) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess) {
    // No driver, or a driver older than the runtime: not an error for a CPU machine.
    if (why) *why = std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
    cudaGetLastError();  // clear it so later calls do not report it again
    return 0;
  }
  if (devices == 0 && why) *why = "no device visible";
  return devices;
}

}  // namespace infergate::cuda
