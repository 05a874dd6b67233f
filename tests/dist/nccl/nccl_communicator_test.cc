// NcclCommunicator on GPU buffers against the exact answers, for odd counts; on one GPU this is
// the world-size-1 path (ci/gpu-check.sh), on N GPUs `mpirun -np N` runs the same cases.
#include <catch2/catch.hpp>
#include <vector>

#include "bench/programs/comm/comm_bench.h"
#include "engine/comm/mpi_communicator.h"
#include "engine/comm/nccl_communicator.h"
#include "tests/dist/support/elements.h"

namespace infergate {

namespace {

double v(int r, size_t i) { return static_cast<double>((3 * r + static_cast<int>(i % 11)) % 11); }

// Host values through a device buffer and back.
template <typename T>
std::unique_ptr<CommBuffer> on_device(Communicator& comm, const std::vector<T>& host) {
  auto buffer = comm.allocate(host.size() * sizeof(T));
  buffer->upload(host.data(), host.size() * sizeof(T));
  return buffer;
}

template <typename T>
std::vector<T> to_host(CommBuffer& buffer, size_t count) {
  std::vector<T> host(count);
  buffer.download(host.data(), count * sizeof(T));
  return host;
}

}  // namespace

TEST_CASE("NCCL all_reduce, all_gather and reduce_scatter are exact for odd counts", "[nccl]") {
  MpiCommunicator bootstrap(CommOptions{60});
  NcclCommunicator comm(bootstrap, CommOptions{60});
  CHECK(comm.space() == MemorySpace::kCuda);
  const size_t n = static_cast<size_t>(comm.size());
  for (size_t count : {size_t{1}, size_t{7}, size_t{100003}}) {
    INFO("count " << count);
    const auto mine =
        test::elements<BFloat16>(n * count, [&](size_t i) { return v(comm.rank(), i); });
    auto send = on_device(comm, mine);
    auto recv = comm.allocate(n * count * sizeof(BFloat16));

    comm.all_reduce(send->span(CommDType::kBF16, count), recv->span(CommDType::kBF16, count));
    std::vector<double> sum(count, 0);
    for (size_t i = 0; i < count; ++i) {
      for (int r = 0; r < comm.size(); ++r) sum[i] += v(r, i);
    }
    CHECK(test::values(to_host<BFloat16>(*recv, count)) == sum);

    comm.all_gather(send->span(CommDType::kBF16, count), recv->span(CommDType::kBF16, n * count));
    std::vector<double> gathered;
    for (int r = 0; r < comm.size(); ++r) {
      for (size_t i = 0; i < count; ++i) gathered.push_back(v(r, i));
    }
    CHECK(test::values(to_host<BFloat16>(*recv, n * count)) == gathered);

    comm.reduce_scatter(send->span(CommDType::kBF16, n * count),
                        recv->span(CommDType::kBF16, count));
    std::vector<double> mine_reduced(count, 0);
    for (size_t i = 0; i < count; ++i) {
      for (int r = 0; r < comm.size(); ++r) mine_reduced[i] += v(r, comm.rank() * count + i);
    }
    CHECK(test::values(to_host<BFloat16>(*recv, count)) == mine_reduced);
  }
}

TEST_CASE("NCCL all_to_all_v, send_recv, broadcast and barrier move the right data", "[nccl]") {
  MpiCommunicator bootstrap(CommOptions{60});
  NcclCommunicator comm(bootstrap, CommOptions{60});
  const size_t n = static_cast<size_t>(comm.size());
  const size_t me = static_cast<size_t>(comm.rank());
  const auto count = [](size_t from, size_t to) { return (from + 2 * to) % 4 * 3 + 1; };
  std::vector<size_t> sc, rc;
  std::vector<int32_t> sent, want;
  for (size_t j = 0; j < n; ++j) {
    sc.push_back(count(me, j));
    rc.push_back(count(j, me));
    for (size_t k = 0; k < count(me, j); ++k) sent.push_back(int32_t(me * 10000 + j * 100 + k));
    for (size_t k = 0; k < count(j, me); ++k) want.push_back(int32_t(j * 10000 + me * 100 + k));
  }
  auto send = on_device(comm, sent);
  auto recv = comm.allocate(want.size() * sizeof(int32_t));
  comm.all_to_all_v(send->span(CommDType::kI32, sent.size()), sc,
                    recv->span(CommDType::kI32, want.size()), rc);
  CHECK(to_host<int32_t>(*recv, want.size()) == want);

  const int next = int((me + 1) % n), prev = int((me + n - 1) % n);
  comm.send_recv(send->span(CommDType::kI32, 5), next, recv->span(CommDType::kI32, 5), prev);
  CHECK(to_host<int32_t>(*recv, 1)[0] == int32_t(prev * 10000 + 0 * 100));

  // Every rank's first element becomes rank 0's: 0 * 10000 + 0 * 100 + 0.
  comm.broadcast(send->span(CommDType::kI32, 1), 0);
  CHECK(to_host<int32_t>(*send, 1)[0] == 0);
  comm.barrier();
  CHECK(comm.stats()[CommOp::kBarrier].calls == 1);
}

TEST_CASE("the bench harness is exact over NCCL with MPI carrying its bookkeeping", "[nccl]") {
  MpiCommunicator bootstrap(CommOptions{60});
  NcclCommunicator comm(bootstrap, CommOptions{60});
  CommBenchOptions o;
  o.min_bytes = 8;
  o.max_bytes = 1 << 20;
  o.step_factor = 8;
  o.iters = 3;
  o.warmup = 1;
  const CommBenchResult r = run_comm_bench(comm, bootstrap, o);
  CHECK(r.backend == "nccl");
  CHECK(r.total_wrong() == 0);
}

}  // namespace infergate
