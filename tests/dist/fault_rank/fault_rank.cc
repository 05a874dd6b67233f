// One rank of the fault tests (tests/dist/jobs/faults_test.cc), run as
//   mpirun -np N dist_fault_rank kill|hang TIMEOUT_S
// Every rank completes one all_reduce; then the last rank fails: `kill` raises SIGKILL (gone at
// once, like a crash or the OOM killer), `hang` raises SIGSTOP (alive but silent, like a
// deadlock). The others call all_reduce again, which can never complete: what the job prints and
// how fast it ends is what the tests check.
#include <signal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "engine/comm/mpi_communicator.h"
#include "engine/comm/mpi_session.h"

int main(int argc, char** argv) {
  using namespace infergate;
  if (argc != 3 || (std::strcmp(argv[1], "kill") && std::strcmp(argv[1], "hang"))) {
    std::fprintf(stderr, "usage: dist_fault_rank kill|hang TIMEOUT_S\n");
    return 2;
  }
  MpiSession mpi(&argc, &argv);
  MpiCommunicator comm(CommOptions{std::atof(argv[2])});
  std::vector<float> data(1024, 1.0f);
  comm.all_reduce(data);
  if (comm.rank() == comm.size() - 1) raise(std::strcmp(argv[1], "kill") == 0 ? SIGKILL : SIGSTOP);
  comm.all_reduce(data);
  std::fprintf(stderr, "rank %d: the all_reduce without rank %d completed\n", comm.rank(),
               comm.size() - 1);
  return 1;
}
