// One interface over the collectives a multi-rank engine needs (tensor, pipeline and expert
// parallelism): MpiCommunicator on CPU buffers, NcclCommunicator on GPU buffers.
//
// Every operation blocks until this rank's part is complete, checks its arguments first
// (std::invalid_argument naming the operation and the mismatch; nothing is sent then), counts
// its calls, bytes and seconds in stats(), and is an NVTX range named after it
// (common/util/nvtx_range.h). Collectives must be called by every rank in the same order with
// matching counts and types. A failure is a CommError; an operation that outlives
// CommOptions::timeout_s (a peer died, hangs or called something else) ends the job with a
// message naming the operation, the rank and the deadline (MPI) or throws CommTimeoutError
// (NCCL); see docs/distributed.md.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

#include "engine/comm/comm_buffer.h"
#include "engine/comm/comm_op.h"
#include "engine/comm/comm_span.h"
#include "engine/comm/comm_stats.h"
#include "engine/comm/reduce_op.h"

namespace infergate {

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual const char* backend() const = 0;  // "mpi" | "nccl"
  // Where the buffers of every operation must live.
  virtual MemorySpace space() const = 0;
  // A buffer in that space.
  virtual std::unique_ptr<CommBuffer> allocate(size_t bytes) = 0;

  // Every rank gets the element-wise reduction of all ranks' `send` in `recv` (same count and
  // type). `send` may be `recv` itself: in place.
  void all_reduce(ConstCommSpan send, CommSpan recv, ReduceOp op = ReduceOp::kSum);
  void all_reduce(CommSpan data, ReduceOp op = ReduceOp::kSum) { all_reduce(data, data, op); }
  // `recv` is every rank's `send`, concatenated in rank order: recv.count() == size() *
  // send.count().
  void all_gather(ConstCommSpan send, CommSpan recv);
  // `send` is size() equal blocks; rank r gets the reduction of every rank's block r:
  // send.count() == size() * recv.count().
  void reduce_scatter(ConstCommSpan send, CommSpan recv, ReduceOp op = ReduceOp::kSum);
  // Block j of `send` goes to rank j; block j of `recv` comes from rank j. size() equal blocks:
  // send.count() == recv.count(), a multiple of size().
  void all_to_all(ConstCommSpan send, CommSpan recv);
  // all_to_all with a count per peer (the token exchange of expert parallelism): send_counts[j]
  // elements go to rank j, recv_counts[j] come from rank j, blocks packed in rank order. Rank i's
  // send_counts[j] must equal rank j's recv_counts[i]. Zero counts are allowed.
  void all_to_all_v(ConstCommSpan send, std::span<const size_t> send_counts, CommSpan recv,
                    std::span<const size_t> recv_counts);
  // Point to point, in order: a send to `peer` pairs with peer's recv from this rank, with the
  // same count and type. Blocks until the data is handed over (send) or has arrived (recv).
  void send(ConstCommSpan data, int peer);
  void recv(CommSpan data, int peer);
  // Sends to `dst` and receives from `src` together, so a ring of stages cannot deadlock.
  void send_recv(ConstCommSpan send, int dst, CommSpan recv, int src);
  // Rank `root`'s `data` to every rank's `data`.
  void broadcast(CommSpan data, int root);
  void barrier();

  const CommStats& stats() const { return stats_; }

 protected:
  // The transfers, with arguments already checked; counts in elements.
  virtual void do_all_reduce(ConstCommSpan send, CommSpan recv, ReduceOp op) = 0;
  virtual void do_all_gather(ConstCommSpan send, CommSpan recv) = 0;
  virtual void do_reduce_scatter(ConstCommSpan send, CommSpan recv, ReduceOp op) = 0;
  virtual void do_all_to_all(ConstCommSpan send, CommSpan recv) = 0;
  virtual void do_all_to_all_v(ConstCommSpan send, std::span<const size_t> send_counts,
                               CommSpan recv, std::span<const size_t> recv_counts) = 0;
  virtual void do_send(ConstCommSpan data, int peer) = 0;
  virtual void do_recv(CommSpan data, int peer) = 0;
  virtual void do_send_recv(ConstCommSpan send, int dst, CommSpan recv, int src) = 0;
  virtual void do_broadcast(CommSpan data, int root) = 0;
  virtual void do_barrier() = 0;

  // "all_reduce on rank 1 of 4": the prefix of every error message.
  std::string where(CommOp op) const;

 private:
  template <typename Transfer>
  void timed(CommOp op, size_t bytes, Transfer&& transfer);
  void check_peer(CommOp op, int peer, const char* role, bool self_allowed) const;

  CommStats stats_;
};

}  // namespace infergate
