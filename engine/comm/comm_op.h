// The operations a Communicator offers, named once: stats keys, NVTX range names, error messages
// and `infergate bench-comm --ops` all use these names.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace infergate {

enum class CommOp : uint8_t {
  kAllReduce,
  kAllGather,
  kReduceScatter,
  kAllToAll,
  kAllToAllV,
  kSend,
  kRecv,
  kSendRecv,
  kBroadcast,
  kBarrier,
};

inline constexpr size_t kNumCommOps = 10;
inline constexpr std::array<CommOp, kNumCommOps> kAllCommOps = {
    CommOp::kAllReduce, CommOp::kAllGather, CommOp::kReduceScatter, CommOp::kAllToAll,
    CommOp::kAllToAllV, CommOp::kSend,      CommOp::kRecv,          CommOp::kSendRecv,
    CommOp::kBroadcast, CommOp::kBarrier};

// "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "all_to_all_v", "send", "recv",
// "send_recv", "broadcast", "barrier".
const char* comm_op_name(CommOp op);
// Throws std::invalid_argument naming the allowed values.
CommOp parse_comm_op(const std::string& name);

}  // namespace infergate
