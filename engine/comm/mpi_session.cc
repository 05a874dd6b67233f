#include "engine/comm/mpi_session.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#include "engine/comm/termination_report.h"

namespace infergate {

MpiSession::MpiSession(int* argc, char*** argv) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized) {
    MPI_Query_thread(&thread_level_);
  } else {
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &thread_level_);
    owns_ = true;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size_);
  install_termination_report(world_rank_, world_size_);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owns_ && !finalized) MPI_Finalize();
}

void MpiSession::abort_job(const std::string& message, int exit_code) {
  int rank = 0, size = 1, initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  std::fprintf(stderr, "infergate: rank %d of %d: %s\n", rank, size, message.c_str());
  std::fflush(stderr);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

}  // namespace infergate
