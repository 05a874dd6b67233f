// The Communicator over NCCL: GPU buffers, NCCL's rings and trees over NVLink, PCIe or the
// network. Built only when the CUDA toolkit and NCCL are found. Not yet run on a GPU by its
// author (docs/distributed.md says what is tested where).
//
// Each operation is launched on the communicator's own stream and then waited for by polling
// the stream and ncclCommGetAsyncError (the communicator is created nonblocking), so a peer that
// died or hangs becomes a CommTimeoutError after CommOptions::timeout_s rather than a hang; NCCL
// errors become CommErrors. After either, the NCCL communicator is aborted (ncclCommAbort) and
// every further call throws.
#pragma once

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <functional>
#include <string>

#include "engine/comm/comm_options.h"
#include "engine/comm/communicator.h"

namespace infergate {

class NcclCommunicator final : public Communicator {
 public:
  // Collective over `bootstrap` (an MpiCommunicator): its rank 0 creates NCCL's unique id and
  // broadcasts it, as nccl-tests does; every rank joins with its bootstrap rank, on GPU `device`
  // (-1: its local rank on the host modulo the visible GPUs).
  NcclCommunicator(Communicator& bootstrap, CommOptions options = {}, int device = -1);
  ~NcclCommunicator() override;
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  const char* backend() const override { return "nccl"; }
  MemorySpace space() const override { return MemorySpace::kCuda; }
  // cudaMalloc'd on this communicator's device.
  std::unique_ptr<CommBuffer> allocate(size_t bytes) override;
  int device() const { return device_; }
  cudaStream_t stream() const { return stream_; }

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
  // Launches NCCL calls (`enqueue` returns the last call's result) and waits for them to finish
  // within the deadline.
  void run(CommOp op, const std::function<ncclResult_t()>& enqueue);
  // Polls until the communicator has nothing in progress and, with `drain_stream`, the stream
  // is idle; on an error or past the deadline, aborts the communicator and throws.
  void wait(const std::string& what, bool drain_stream);
  void exchange(CommOp op, ConstCommSpan send, std::span<const size_t> send_counts, CommSpan recv,
                std::span<const size_t> recv_counts);
  std::string nccl_error(ncclResult_t rc) const;
  void abort_comm();
  void release_cuda();

  CommOptions options_;
  int rank_ = 0;
  int size_ = 1;
  int device_ = 0;
  cudaStream_t stream_ = nullptr;
  ncclComm_t comm_ = nullptr;
  void* scratch_ = nullptr;  // one int on the device, for barrier()
  bool aborted_ = false;
};

}  // namespace infergate
