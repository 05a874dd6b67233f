#include "engine/comm/comm_op.h"

#include <stdexcept>

namespace infergate {

const char* comm_op_name(CommOp op) {
  switch (op) {
    case CommOp::kAllReduce:
      return "all_reduce";
    case CommOp::kAllGather:
      return "all_gather";
    case CommOp::kReduceScatter:
      return "reduce_scatter";
    case CommOp::kAllToAll:
      return "all_to_all";
    case CommOp::kAllToAllV:
      return "all_to_all_v";
    case CommOp::kSend:
      return "send";
    case CommOp::kRecv:
      return "recv";
    case CommOp::kSendRecv:
      return "send_recv";
    case CommOp::kBroadcast:
      return "broadcast";
    case CommOp::kBarrier:
      return "barrier";
  }
  return "?";
}

CommOp parse_comm_op(const std::string& name) {
  std::string allowed;
  for (CommOp op : kAllCommOps) {
    if (name == comm_op_name(op)) return op;
    allowed += std::string(allowed.empty() ? "" : ", ") + comm_op_name(op);
  }
  throw std::invalid_argument("unknown collective '" + name + "' (allowed: " + allowed + ")");
}

}  // namespace infergate
