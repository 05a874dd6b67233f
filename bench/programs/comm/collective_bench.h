// One collective as `infergate bench-comm` measures it, in nccl-tests' shape: one small file
// per collective (all_reduce_bench.cc, ...) against one shared harness (comm_bench.h), each
// stating its bandwidth model, its buffers and the value every received element must hold.
//
// A message "size" follows nccl-tests (and CommStats): the buffer for all_reduce and broadcast,
// the gathered buffer for all_gather, the scattered buffer for reduce_scatter, the send buffer
// for all_to_all and send_recv. algbw = size / time; busbw = algbw * bus_factor, the share of
// the size each rank's link must carry with the best algorithm, so busbw compares with the
// link's bandwidth whatever the collective and the rank count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "bench/programs/comm/test_values.h"
#include "engine/comm/comm_op.h"
#include "engine/comm/communicator.h"

namespace infergate {

// Elements per rank in each buffer for one message size.
struct CollectiveShape {
  size_t send_count = 0;
  size_t recv_count = 0;
};

class CollectiveBench {
 public:
  virtual ~CollectiveBench() = default;

  virtual CommOp op() const = 0;
  // busbw / algbw with `ranks` ranks: all_reduce 2(n-1)/n; all_gather, reduce_scatter and
  // all_to_all (n-1)/n; send_recv and broadcast 1.
  virtual double bus_factor(int ranks) const = 0;
  // Sizes count elements in multiples of this (all_gather splits its size among ranks).
  virtual size_t granularity(int /*ranks*/) const { return 1; }
  // The buffers for a message of `count` elements (a multiple of granularity()).
  virtual CollectiveShape shape(size_t count, int ranks) const = 0;
  // The data rank `rank` starts with: its send buffer (its recv buffer for broadcast, which works
  // in place).
  virtual int64_t initial(const TestValues& v, int rank, size_t index) const {
    return v.at(rank, index);
  }
  // What element `index` of rank `rank`'s recv buffer must hold afterwards.
  virtual int64_t expected(const TestValues& v, int rank, int ranks, const CollectiveShape& shape,
                           size_t index) const = 0;
  // True when the data starts in the recv buffer (broadcast).
  virtual bool in_place() const { return false; }
  virtual void run(Communicator& comm, ConstCommSpan send, CommSpan recv) const = 0;
};

std::unique_ptr<CollectiveBench> make_all_reduce_bench();
std::unique_ptr<CollectiveBench> make_all_gather_bench();
std::unique_ptr<CollectiveBench> make_reduce_scatter_bench();
std::unique_ptr<CollectiveBench> make_all_to_all_bench();
std::unique_ptr<CollectiveBench> make_send_recv_bench();
std::unique_ptr<CollectiveBench> make_broadcast_bench();

// The operations bench-comm measures, in its default order.
const std::vector<CommOp>& benchmarked_ops();
// Throws std::invalid_argument for an operation bench-comm does not measure, naming the ones
// it does.
std::unique_ptr<CollectiveBench> make_collective_bench(CommOp op);

}  // namespace infergate
