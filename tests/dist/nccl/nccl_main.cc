// The NCCL communicator's tests, run under mpirun (its unique id travels over MPI). Without a
// CUDA device they skip: exit 77, which CTest reports as skipped (SKIP_RETURN_CODE).
#define CATCH_CONFIG_RUNNER
#include <cuda_runtime_api.h>

#include <catch2/catch.hpp>
#include <cstdio>

#include "engine/comm/mpi_session.h"

int main(int argc, char** argv) {
  infergate::MpiSession mpi(&argc, &argv);
  int devices = 0;
  const cudaError_t rc = cudaGetDeviceCount(&devices);
  if (rc != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device (%s)\n",
                rc != cudaSuccess ? cudaGetErrorString(rc) : "none visible");
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
