// The multi-rank engine tests run under mpirun: rank 0 runs the Catch2 session (its engines
// drive the other ranks), every other rank serves them as `infergate` workers do.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "engine/parallel/parallel_job.h"

int main(int argc, char** argv) {
  infergate::ParallelJob job(&argc, &argv);
  if (job.is_worker()) return job.run_worker();
  return Catch::Session().run(argc, argv);
}
