// all_to_all: block j of rank i's buffer becomes block i of rank j's.
#include "bench/programs/comm/collective_bench.h"

namespace infergate {

namespace {

class AllToAllBench final : public CollectiveBench {
 public:
  CommOp op() const override { return CommOp::kAllToAll; }
  // Each rank sends the n-1 blocks meant for others.
  double bus_factor(int n) const override { return double(n - 1) / n; }
  size_t granularity(int n) const override { return static_cast<size_t>(n); }
  CollectiveShape shape(size_t count, int) const override { return {count, count}; }
  int64_t expected(const TestValues& v, int rank, int n, const CollectiveShape& s,
                   size_t i) const override {
    const size_t block = s.recv_count / static_cast<size_t>(n);
    const int from = static_cast<int>(i / block);
    return v.at(from, static_cast<size_t>(rank) * block + i % block);
  }
  void run(Communicator& comm, ConstCommSpan send, CommSpan recv) const override {
    comm.all_to_all(send, recv);
  }
};

}  // namespace

std::unique_ptr<CollectiveBench> make_all_to_all_bench() {
  return std::make_unique<AllToAllBench>();
}

}  // namespace infergate
