// reduce_scatter: rank r ends with the sum over ranks of block r of their buffers.
#include "bench/programs/comm/collective_bench.h"

namespace infergate {

namespace {

class ReduceScatterBench final : public CollectiveBench {
 public:
  CommOp op() const override { return CommOp::kReduceScatter; }
  // Each rank sends the n-1 partial blocks that other ranks own.
  double bus_factor(int n) const override { return double(n - 1) / n; }
  size_t granularity(int n) const override { return static_cast<size_t>(n); }
  CollectiveShape shape(size_t count, int n) const override {
    return {count, count / static_cast<size_t>(n)};
  }
  int64_t expected(const TestValues& v, int rank, int, const CollectiveShape& s,
                   size_t i) const override {
    return v.sum_over_ranks(static_cast<size_t>(rank) * s.recv_count + i);
  }
  void run(Communicator& comm, ConstCommSpan send, CommSpan recv) const override {
    comm.reduce_scatter(send, recv, ReduceOp::kSum);
  }
};

}  // namespace

std::unique_ptr<CollectiveBench> make_reduce_scatter_bench() {
  return std::make_unique<ReduceScatterBench>();
}

}  // namespace infergate
