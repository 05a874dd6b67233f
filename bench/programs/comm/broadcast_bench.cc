// broadcast: rank 0's buffer to every rank, in place.
#include "bench/programs/comm/collective_bench.h"

namespace infergate {

namespace {

class BroadcastBench final : public CollectiveBench {
 public:
  CommOp op() const override { return CommOp::kBroadcast; }
  // A pipelined chain: every rank receives (and forwards) the whole buffer once.
  double bus_factor(int) const override { return 1.0; }
  CollectiveShape shape(size_t count, int) const override { return {0, count}; }
  bool in_place() const override { return true; }
  int64_t expected(const TestValues& v, int, int, const CollectiveShape&, size_t i) const override {
    return v.at(0, i);
  }
  void run(Communicator& comm, ConstCommSpan, CommSpan recv) const override {
    comm.broadcast(recv, 0);
  }
};

}  // namespace

std::unique_ptr<CollectiveBench> make_broadcast_bench() {
  return std::make_unique<BroadcastBench>();
}

}  // namespace infergate
