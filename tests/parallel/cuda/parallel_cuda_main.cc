// The multi-rank engine on GPUs, under mpirun: rank 0 runs the Catch2 cases, the other ranks
// serve its engines. `--gpus N` first: with fewer usable CUDA devices than N the job does not
// run its cases: rank 0 says why and exits 77 (CTest's skip), the workers exit when told.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <string>

#include "engine/parallel/cuda/cuda_rank_model.h"
#include "engine/parallel/parallel_job.h"
#include "kernels/cuda/device.h"

int main(int argc, char** argv) {
  int needed = 1;
  if (argc > 2 && std::strcmp(argv[1], "--gpus") == 0) {
    needed = std::stoi(argv[2]);
    argv[2] = argv[0];
    argv += 2;
    argc -= 2;
  }
  infergate::register_cuda_rank_model();  // as the infergate binary's main() does
  infergate::ParallelJob job(&argc, &argv);
  if (job.is_worker()) return job.run_worker();
  std::string why = "fewer than " + std::to_string(needed);
  const int devices = infergate::cuda::cuda_device_count(&why);
  if (devices < needed) {
    std::printf("SKIP: %d CUDA device(s) usable, %d needed (%s)\n", devices, needed, why.c_str());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
