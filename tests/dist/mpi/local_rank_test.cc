// local_rank: which GPU a rank takes is decided from host names gathered over MPI.
#include <catch2/catch.hpp>

#include "engine/comm/local_rank.h"
#include "tests/dist/mpi/world.h"

namespace infergate {

TEST_CASE("local_rank counts the ranks sharing this host", "[mpi]") {
  MpiCommunicator comm = test::world();
  const LocalRank local = local_rank(comm);  // mpirun on one machine: all ranks are local
  CHECK(local.rank == comm.rank());
  CHECK(local.size == comm.size());
}

}  // namespace infergate
