// all_reduce: every rank ends with the sum of all ranks' buffers.
#include "bench/programs/comm/collective_bench.h"

namespace infergate {

namespace {

class AllReduceBench final : public CollectiveBench {
 public:
  CommOp op() const override { return CommOp::kAllReduce; }
  // A ring reduce-scatter then all-gather: each rank sends 2(n-1)/n of the buffer.
  double bus_factor(int n) const override { return 2.0 * (n - 1) / n; }
  CollectiveShape shape(size_t count, int) const override { return {count, count}; }
  int64_t expected(const TestValues& v, int, int, const CollectiveShape&, size_t i) const override {
    return v.sum_over_ranks(i);
  }
  void run(Communicator& comm, ConstCommSpan send, CommSpan recv) const override {
    comm.all_reduce(send, recv, ReduceOp::kSum);
  }
};

}  // namespace

std::unique_ptr<CollectiveBench> make_all_reduce_bench() {
  return std::make_unique<AllReduceBench>();
}

}  // namespace infergate
