// The CUDA kernel tests. Without a usable CUDA device they do not run: exit 77, which CTest
// reports as skipped (SKIP_RETURN_CODE), with the reason printed; never a pass.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

#include "kernels/cuda/device.h"

int main(int argc, char** argv) {
  std::string why;
  if (infergate::cuda::cuda_device_count(&why) == 0) {
    std::printf("SKIP: no CUDA device (%s)\n", why.c_str());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
