// What communication cost, per operation: calls, bytes and seconds, so that a results file can
// say what tensor or expert parallelism costs on a given interconnect. A step's share is the
// difference of two snapshots (`after - before`).
//
// Bytes follow nccl-tests' "size" of each operation, per rank: the buffer for all_reduce and
// broadcast, the gathered (receive) buffer for all_gather, the scattered (send) buffer for
// reduce_scatter, the send buffer for all_to_all(_v), send and send_recv, the receive buffer for
// recv, and 0 for barrier.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "engine/comm/comm_op.h"

namespace infergate {

struct CommOpStats {
  uint64_t calls = 0;
  uint64_t bytes = 0;
  double seconds = 0;
};

class CommStats {
 public:
  void record(CommOp op, uint64_t bytes, double seconds);
  const CommOpStats& operator[](CommOp op) const { return ops_[static_cast<size_t>(op)]; }
  // Sums over every operation.
  CommOpStats total() const;
  // Per operation, this minus `earlier` (a snapshot of the same counters).
  CommStats operator-(const CommStats& earlier) const;

 private:
  std::array<CommOpStats, kNumCommOps> ops_{};
};

// {"all_reduce": {"calls": 3, "bytes": 12288, "seconds": 0.0004}, ...}: operations never called
// are left out, so a step without communication is {}.
nlohmann::json to_json(const CommStats& stats);

}  // namespace infergate
