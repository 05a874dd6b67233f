// Arguments that cannot work are refused before anything is sent, on every rank alike, with a
// message naming the operation and the mismatch; the communicator stays usable.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "tests/dist/mpi/world.h"

namespace infergate {

using Catch::Matchers::Contains;

TEST_CASE("mismatched buffers are refused with the operation and the counts", "[mpi]") {
  MpiCommunicator comm = test::world();
  const size_t n = static_cast<size_t>(comm.size());
  std::vector<float> one(4), other(5), gathered(4 * n + 1);
  std::vector<int32_t> ints(4);
  CHECK_THROWS_WITH(comm.all_reduce(one, other),
                    Contains("all_reduce on rank") && Contains("recv has 5 elements, send 4"));
  CHECK_THROWS_WITH(comm.all_reduce(one, ints), Contains("send holds f32, recv holds i32"));
  CHECK_THROWS_WITH(comm.all_gather(one, gathered),
                    Contains("all_gather") && Contains("size() * send = " + std::to_string(4 * n)));
  CHECK_THROWS_WITH(comm.broadcast(one, comm.size()),
                    Contains("root " + std::to_string(n)) && Contains("is not a rank"));
  CHECK_THROWS_WITH(comm.send(one, comm.rank()), Contains("send") && Contains("itself"));
  const std::vector<size_t> wrong_counts(n + 1, 0);
  CHECK_THROWS_WITH(comm.all_to_all_v(one, wrong_counts, other, wrong_counts),
                    Contains("one per rank needed"));
  std::vector<float> buffer(4 * n);
  CHECK_THROWS_WITH(comm.all_to_all(std::span<const float>(buffer).subspan(0, 2 * n),
                                    std::span<float>(buffer).subspan(n, 2 * n)),
                    Contains("send and recv buffers overlap"));
  // Nothing was sent: the ranks are still in step.
  comm.all_reduce(one);
  CHECK(comm.stats()[CommOp::kAllReduce].calls == 1);
}

TEST_CASE("a received message of the wrong length is an error naming both counts", "[mpi]") {
  MpiCommunicator comm = test::world();
  if (comm.size() < 2) return;
  std::vector<float> three(3), five(5);
  if (comm.rank() == 0) comm.send(three, 1);
  if (comm.rank() == 1) {
    CHECK_THROWS_WITH(comm.recv(five, 0), Contains("expected 5 f32 from rank 0, got 3"));
  }
  comm.barrier();
}

}  // namespace infergate
