// send_recv: a ring, as pipeline stages pass activations: rank r sends to r+1 and receives
// from r-1 at once (nccl-tests' sendrecv).
#include "bench/programs/comm/collective_bench.h"

namespace infergate {

namespace {

class SendRecvBench final : public CollectiveBench {
 public:
  CommOp op() const override { return CommOp::kSendRecv; }
  // Point to point: the whole message crosses one link.
  double bus_factor(int) const override { return 1.0; }
  CollectiveShape shape(size_t count, int) const override { return {count, count}; }
  int64_t expected(const TestValues& v, int rank, int n, const CollectiveShape&,
                   size_t i) const override {
    return v.at((rank + n - 1) % n, i);
  }
  void run(Communicator& comm, ConstCommSpan send, CommSpan recv) const override {
    const int n = comm.size();
    comm.send_recv(send, (comm.rank() + 1) % n, recv, (comm.rank() + n - 1) % n);
  }
};

}  // namespace

std::unique_ptr<CollectiveBench> make_send_recv_bench() {
  return std::make_unique<SendRecvBench>();
}

}  // namespace infergate
