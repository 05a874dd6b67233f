// The Communicator over MPI (Debian's OpenMPI): host buffers, the library's own collective
// algorithms (shared memory within a node, TCP or a fast fabric between nodes).
//
// Every operation is MPI's blocking call, armed with a DeadlineWatchdog: MPI offers no timeout,
// and its nonblocking calls are slower for small messages. When the deadline passes, the
// watchdog prints which operation, on which rank, outlived which deadline, and ends the job with
// exit status kCommTimeoutExitCode (_Exit; mpirun ends the job): a collective stuck half-way cannot
// be cancelled, and OpenMPI 4 cannot shrink a job around a dead rank. An MPI error is thrown as a
// CommError naming the operation, the rank and MPI's message.
#pragma once

#include <mpi.h>

#include "engine/comm/comm_options.h"
#include "engine/comm/communicator.h"
#include "engine/comm/deadline_watchdog.h"

namespace infergate {

class MpiCommunicator final : public Communicator {
 public:
  // Collective over `base`: duplicates it, so this communicator's messages never match anyone
  // else's, with MPI_ERRORS_RETURN. MPI must be initialized (MpiSession).
  explicit MpiCommunicator(CommOptions options = {}, MPI_Comm base = MPI_COMM_WORLD);
  ~MpiCommunicator() override;
  MpiCommunicator(const MpiCommunicator&) = delete;
  MpiCommunicator& operator=(const MpiCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const char* backend() const override { return "mpi"; }
  MemorySpace space() const override { return MemorySpace::kHost; }
  std::unique_ptr<CommBuffer> allocate(size_t bytes) override;
  MPI_Comm comm() const { return comm_; }
  const CommOptions& options() const { return options_; }

 protected:
  void do_all_reduce(ConstCommSpan send, CommSpan recv, ReduceOp op) override;
  void do_all_gather(ConstCommSpan send, CommSpan recv) override;
  void do_reduce_scatter(ConstCommSpan send, CommSpan recv, ReduceOp op) override;
  void do_all_to_all(ConstCommSpan send, CommSpan recv) override;
  void do_all_to_all_v(ConstCommSpan send, std::span<const size_t> send_counts, CommSpan recv,
                       std::span<const size_t> recv_counts) override;
  void do_send(ConstCommSpan data, int peer) override;
  void do_recv(CommSpan data, int peer) override;
  void do_send_recv(ConstCommSpan send, int dst, CommSpan recv, int src) override;
  void do_broadcast(CommSpan data, int root) override;
  void do_barrier() override;

 private:
  // Throws CommError naming the operation and MPI's message unless rc is MPI_SUCCESS.
  void check(int rc, CommOp op) const;
  // MPI counts are ints; throws std::invalid_argument past INT_MAX.
  int mpi_count(size_t count, CommOp op) const;
  void check_received(const MPI_Status& status, CommSpan recv, int src, CommOp op) const;
  [[noreturn]] void on_deadline(const DeadlineWatchdog::Expiry& expiry) const;

  CommOptions options_;
  int rank_ = 0;
  int size_ = 1;
  DeadlineWatchdog watchdog_;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace infergate
