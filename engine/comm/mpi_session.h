// This process as one rank of an MPI job (launched by `mpirun -np N ...`; without mpirun it is
// a job of one). Initializes MPI with MPI_THREAD_MULTIPLE (the deadline watchdog ends a job from
// its own thread), makes MPI errors return as error codes instead of aborting silently
// (MPI_ERRORS_RETURN on MPI_COMM_WORLD), installs the termination report, and finalizes MPI
// when it goes out of scope.
#pragma once

#include <string>

namespace infergate {

class MpiSession {
 public:
  // Leaves MPI alone (neither initializes nor finalizes it) if it is already initialized.
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  int world_rank() const { return world_rank_; }
  int world_size() const { return world_size_; }
  // The thread support MPI granted (MPI_THREAD_*).
  int thread_level() const { return thread_level_; }

  // Prints "infergate: rank R of N: <message>" on stderr and ends every rank of the job with
  // `exit_code` (MPI_Abort). For errors after which the ranks cannot all reach MPI_Finalize: a
  // failed collective, or an error on some ranks only.
  [[noreturn]] static void abort_job(const std::string& message, int exit_code);

 private:
  bool owns_ = false;
  int world_rank_ = 0;
  int world_size_ = 1;
  int thread_level_ = 0;
};

}  // namespace infergate
