// Runs a whole MPI job (mpirun and its ranks) as a subprocess and keeps what a user would see:
// the combined output, the exit status and how long it took.
#pragma once

#include <string>

namespace infergate::test {

struct JobResult {
  std::string output;    // stdout and stderr, interleaved
  int exit_status = -1;  // -1 when it did not exit normally
  double seconds = 0;
};

// `args` are appended to "mpirun --oversubscribe --allow-run-as-root -np <ranks>" (quoted by
// the caller).
JobResult run_mpi_job(int ranks, const std::string& args);
// A command line run by /bin/sh.
JobResult run_command(const std::string& command);

}  // namespace infergate::test
