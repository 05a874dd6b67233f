// all_gather: every rank ends with all ranks' buffers, in rank order.
#include "bench/programs/comm/collective_bench.h"

namespace infergate {

namespace {

class AllGatherBench final : public CollectiveBench {
 public:
  CommOp op() const override { return CommOp::kAllGather; }
  // Each rank receives the n-1 blocks it does not have.
  double bus_factor(int n) const override { return double(n - 1) / n; }
  size_t granularity(int n) const override { return static_cast<size_t>(n); }
  CollectiveShape shape(size_t count, int n) const override {
    return {count / static_cast<size_t>(n), count};
  }
  int64_t expected(const TestValues& v, int, int, const CollectiveShape& s,
                   size_t i) const override {
    return v.at(static_cast<int>(i / s.send_count), i % s.send_count);
  }
  void run(Communicator& comm, ConstCommSpan send, CommSpan recv) const override {
    comm.all_gather(send, recv);
  }
};

}  // namespace

std::unique_ptr<CollectiveBench> make_all_gather_bench() {
  return std::make_unique<AllGatherBench>();
}

}  // namespace infergate
