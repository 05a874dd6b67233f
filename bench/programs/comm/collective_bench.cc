#include "bench/programs/comm/collective_bench.h"

#include <stdexcept>
#include <string>

namespace infergate {

const std::vector<CommOp>& benchmarked_ops() {
  static const std::vector<CommOp> ops = {CommOp::kAllReduce,     CommOp::kAllGather,
                                          CommOp::kReduceScatter, CommOp::kAllToAll,
                                          CommOp::kSendRecv,      CommOp::kBroadcast};
  return ops;
}

std::unique_ptr<CollectiveBench> make_collective_bench(CommOp op) {
  switch (op) {
    case CommOp::kAllReduce:
      return make_all_reduce_bench();
    case CommOp::kAllGather:
      return make_all_gather_bench();
    case CommOp::kReduceScatter:
      return make_reduce_scatter_bench();
    case CommOp::kAllToAll:
      return make_all_to_all_bench();
    case CommOp::kSendRecv:
      return make_send_recv_bench();
    case CommOp::kBroadcast:
      return make_broadcast_bench();
    default:
      break;
  }
  std::string allowed;
  for (CommOp o : benchmarked_ops()) {
    allowed += std::string(allowed.empty() ? "" : ", ") + comm_op_name(o);
  }
  throw std::invalid_argument(std::string("bench-comm does not measure ") + comm_op_name(op) +
                              " (allowed: " + allowed + ")");
}

}  // namespace infergate
