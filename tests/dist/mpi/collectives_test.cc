// Every collective of MpiCommunicator against the exact answer, for odd element counts, every
// element type and (through CTest) odd and even rank counts.
#include <catch2/catch.hpp>
#include <cstdint>
#include <vector>

#include "tests/dist/mpi/world.h"
#include "tests/dist/support/elements.h"

namespace infergate {
namespace {

using test::elements;
using test::values;

// Rank r's element i: small, distinct between neighbouring ranks, exact in every type.
double v(int r, size_t i) { return static_cast<double>((3 * r + static_cast<int>(i % 11)) % 11); }

const std::vector<size_t> kOddCounts = {1, 7, 1001, 40009};  // the last one exceeds eager sends

}  // namespace

TEMPLATE_TEST_CASE("all_reduce sums, maxes and mins exactly for odd counts in every type", "[mpi]",
                   float, double, Float16, BFloat16, int32_t, int64_t, uint8_t) {
  MpiCommunicator comm = test::world();
  const int n = comm.size();
  for (size_t count : kOddCounts) {
    const auto send = elements<TestType>(count, [&](size_t i) { return v(comm.rank(), i); });
    for (ReduceOp op : {ReduceOp::kSum, ReduceOp::kMax, ReduceOp::kMin}) {
      std::vector<TestType> recv(count);
      comm.all_reduce(send, recv, op);
      std::vector<double> want(count);
      for (size_t i = 0; i < count; ++i) {
        double acc = v(0, i);
        for (int r = 1; r < n; ++r) {
          acc = op == ReduceOp::kSum   ? acc + v(r, i)
                : op == ReduceOp::kMax ? std::max(acc, v(r, i))
                                       : std::min(acc, v(r, i));
        }
        want[i] = acc;
      }
      INFO("count " << count << ", " << reduce_op_name(op));
      CHECK(values(recv) == want);
    }
  }
}

TEST_CASE("all_reduce in place replaces the buffer with the sum", "[mpi]") {
  MpiCommunicator comm = test::world();
  std::vector<float> data = elements<float>(333, [&](size_t i) { return v(comm.rank(), i); });
  comm.all_reduce(data);
  for (size_t i = 0; i < data.size(); ++i) {
    double want = 0;
    for (int r = 0; r < comm.size(); ++r) want += v(r, i);
    REQUIRE(data[i] == want);
  }
}

TEMPLATE_TEST_CASE("all_gather concatenates every rank's block in rank order", "[mpi]", float,
                   BFloat16, int64_t) {
  MpiCommunicator comm = test::world();
  const size_t n = static_cast<size_t>(comm.size());
  for (size_t count : {size_t{1}, size_t{5}, size_t{333}, size_t{20001}}) {
    const auto send = elements<TestType>(count, [&](size_t i) { return v(comm.rank(), i); });
    std::vector<TestType> recv(n * count);
    comm.all_gather(send, recv);
    std::vector<double> want;
    for (size_t r = 0; r < n; ++r) {
      for (size_t i = 0; i < count; ++i) want.push_back(v(static_cast<int>(r), i));
    }
    INFO("count " << count);
    CHECK(values(recv) == want);
  }
}

TEMPLATE_TEST_CASE("reduce_scatter leaves each rank the sum of its block", "[mpi]", float, Float16,
                   int32_t) {
  MpiCommunicator comm = test::world();
  const size_t n = static_cast<size_t>(comm.size());
  for (size_t block : {size_t{1}, size_t{7}, size_t{2049}}) {
    const auto send = elements<TestType>(n * block, [&](size_t i) { return v(comm.rank(), i); });
    std::vector<TestType> recv(block);
    comm.reduce_scatter(send, recv);
    std::vector<double> want(block, 0);
    for (size_t i = 0; i < block; ++i) {
      for (int r = 0; r < comm.size(); ++r) want[i] += v(r, comm.rank() * block + i);
    }
    INFO("block " << block);
    CHECK(values(recv) == want);
  }
}

TEST_CASE("all_to_all delivers block j of rank i as block i of rank j", "[mpi]") {
  MpiCommunicator comm = test::world();
  const size_t n = static_cast<size_t>(comm.size());
  for (size_t block : {size_t{1}, size_t{3}, size_t{1111}}) {
    // Element i of rank r's send buffer encodes (r, i) uniquely.
    const auto code = [&](size_t r, size_t i) { return static_cast<double>(r * 100000 + i); };
    const auto send = elements<int64_t>(n * block, [&](size_t i) { return code(comm.rank(), i); });
    std::vector<int64_t> recv(n * block);
    comm.all_to_all(send, recv);
    std::vector<double> want;
    for (size_t from = 0; from < n; ++from) {
      for (size_t i = 0; i < block; ++i) want.push_back(code(from, comm.rank() * block + i));
    }
    INFO("block " << block);
    CHECK(values(recv) == want);
  }
}

TEST_CASE("all_to_all_v moves uneven and empty blocks to the right ranks", "[mpi]") {
  MpiCommunicator comm = test::world();
  const size_t n = static_cast<size_t>(comm.size());
  const size_t me = static_cast<size_t>(comm.rank());
  // Rank i sends (i + 2j) % 4 * 3 elements to rank j: some blocks are empty, none are alike.
  const auto count = [](size_t from, size_t to) { return (from + 2 * to) % 4 * 3; };
  const auto code = [](size_t from, size_t to, size_t k) {
    return static_cast<double>(from * 10000 + to * 100 + k);
  };
  std::vector<size_t> send_counts, recv_counts;
  std::vector<double> send_values, want;
  for (size_t j = 0; j < n; ++j) {
    send_counts.push_back(count(me, j));
    recv_counts.push_back(count(j, me));
    for (size_t k = 0; k < count(me, j); ++k) send_values.push_back(code(me, j, k));
    for (size_t k = 0; k < count(j, me); ++k) want.push_back(code(j, me, k));
  }
  const auto send = elements<int32_t>(send_values.size(), [&](size_t i) { return send_values[i]; });
  std::vector<int32_t> recv(want.size(), -1);
  comm.all_to_all_v(send, send_counts, recv, recv_counts);
  CHECK(values(recv) == want);
}

TEST_CASE("send and recv pass a message around the ring of ranks", "[mpi]") {
  MpiCommunicator comm = test::world();
  const int n = comm.size();
  if (n == 1) return;  // no peer to send to (send to itself is refused: see the argument tests)
  const int next = (comm.rank() + 1) % n, prev = (comm.rank() + n - 1) % n;
  for (size_t count : {size_t{1}, size_t{999}, size_t{100003}}) {
    const auto send = elements<float>(count, [&](size_t i) { return v(comm.rank(), i); });
    std::vector<float> recv(count);
    // Even ranks send first, odd ones receive first, so blocking sends of large messages never
    // all wait at once (with an odd ring, rank 0's send is taken by rank 1 and the ring drains).
    if (comm.rank() % 2 == 0) {
      comm.send(send, next);
      comm.recv(recv, prev);
    } else {
      comm.recv(recv, prev);
      comm.send(send, next);
    }
    const auto want = elements<float>(count, [&](size_t i) { return v(prev, i); });
    INFO("count " << count);
    CHECK(recv == want);
  }
}

TEST_CASE("send_recv shifts every rank's buffer one rank along the ring", "[mpi]") {
  MpiCommunicator comm = test::world();
  const int n = comm.size();
  const int next = (comm.rank() + 1) % n, prev = (comm.rank() + n - 1) % n;
  for (size_t count : {size_t{1}, size_t{777}, size_t{65537}}) {
    const auto send = elements<double>(count, [&](size_t i) { return v(comm.rank(), i); });
    std::vector<double> recv(count);
    comm.send_recv(send, next, recv, prev);
    CHECK(values(recv) == values(elements<double>(count, [&](size_t i) { return v(prev, i); })));
  }
}

TEST_CASE("broadcast copies the root's buffer to every rank, from every root", "[mpi]") {
  MpiCommunicator comm = test::world();
  for (int root = 0; root < comm.size(); ++root) {
    auto data = elements<uint8_t>(4097, [&](size_t i) { return v(comm.rank(), i); });
    comm.broadcast(data, root);
    CHECK(data == elements<uint8_t>(4097, [&](size_t i) { return v(root, i); }));
  }
}

TEST_CASE("stats count calls and nccl-tests bytes per operation", "[mpi]") {
  MpiCommunicator comm = test::world();
  const size_t n = static_cast<size_t>(comm.size());
  std::vector<float> a(10), b(10), gathered(10 * n);
  comm.all_reduce(a, b);
  comm.all_reduce(a, b);
  comm.all_gather(a, gathered);
  comm.barrier();
  const CommStats& s = comm.stats();
  CHECK(s[CommOp::kAllReduce].calls == 2);
  CHECK(s[CommOp::kAllReduce].bytes == 80);
  CHECK(s[CommOp::kAllGather].bytes == 40 * n);  // the gathered buffer
  CHECK(s[CommOp::kBarrier].calls == 1);
  CHECK(s[CommOp::kBroadcast].calls == 0);
  CHECK(s[CommOp::kAllReduce].seconds > 0);
  CHECK(to_json(s).size() == 3);  // only the operations used
}

}  // namespace infergate
