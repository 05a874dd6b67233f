// This process as one rank of a multi-rank infergate job, started as `mpirun -np N infergate
// run|serve|generate ...` (docs/distributed.md). Rank 0 runs the command as usual; the first
// Engine whose config asks for N ranks drives the others through the control channel. Every
// other rank runs the worker loop instead of the command: it builds its part of each engine
// rank 0 sets up, runs each step's plan, and exits when rank 0 is done.
#pragma once

#include <memory>

#include "engine/comm/mpi_session.h"
#include "engine/parallel/control_channel.h"

namespace infergate {

// Whether mpirun (OpenMPI, or any PMI launcher) started this process.
bool launched_under_mpi();

class ParallelJob {
 public:
  // Collective. Initializes MPI, opens the control channel, and registers the multi-rank
  // executor with the engine (executor_registry.h).
  ParallelJob(int* argc, char*** argv);
  // Rank 0: tells the workers to exit.
  ~ParallelJob();

  int world_rank() const { return session_.world_rank(); }
  int world_size() const { return session_.world_size(); }
  bool is_worker() const { return world_rank() != 0; }
  ControlChannel& control() { return *control_; }

  // Ranks other than 0: serves rank 0's commands until it says exit; returns the exit status.
  int run_worker();

 private:
  MpiSession session_;
  std::unique_ptr<ControlChannel> control_;
};

// The job of this process; throws std::logic_error when it was not started under mpirun.
ParallelJob& parallel_job();

}  // namespace infergate
