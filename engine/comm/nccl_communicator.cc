#include "engine/comm/nccl_communicator.h"

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/comm/comm_error.h"
#include "engine/comm/in_flight_op.h"
#include "engine/comm/local_rank.h"

namespace infergate {

namespace {

void check_cuda(cudaError_t rc, const std::string& what) {
  if (rc != cudaSuccess) {
    throw CommError(what + " failed: CUDA error: " + cudaGetErrorString(rc));
  }
}

ncclDataType_t nccl_datatype(CommDType dtype) {
  switch (dtype) {
    case CommDType::kF32:
      return ncclFloat32;
    case CommDType::kF64:
      return ncclFloat64;
    case CommDType::kF16:
      return ncclFloat16;
    case CommDType::kBF16:
      return ncclBfloat16;
    case CommDType::kI32:
      return ncclInt32;
    case CommDType::kI64:
      return ncclInt64;
    case CommDType::kU8:
      return ncclUint8;
  }
  return ncclFloat32;
}

ncclRedOp_t nccl_op(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return ncclSum;
    case ReduceOp::kMax:
      return ncclMax;
    case ReduceOp::kMin:
      return ncclMin;
  }
  return ncclSum;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g s", s);
  return buf;
}

const char* at(const void* base, size_t elements, CommDType dtype) {
  return static_cast<const char*>(base) + elements * comm_dtype_size(dtype);
}

char* at(void* base, size_t elements, CommDType dtype) {
  return static_cast<char*>(base) + elements * comm_dtype_size(dtype);
}

// Device memory with copies from and to the host.
class CudaCommBuffer final : public CommBuffer {
 public:
  CudaCommBuffer(size_t bytes, int device) : CommBuffer(bytes), device_(device) {
    check_cuda(cudaSetDevice(device_), "cudaSetDevice");
    check_cuda(cudaMalloc(&data_, bytes == 0 ? 1 : bytes),
               "cudaMalloc of " + std::to_string(bytes) + " bytes");
  }
  ~CudaCommBuffer() override {
    cudaSetDevice(device_);
    cudaFree(data_);
  }
  void* data() override { return data_; }
  void upload(const void* src, size_t n) override {
    check_fits(n);
    check_cuda(cudaMemcpy(data_, src, n, cudaMemcpyHostToDevice), "cudaMemcpy to the device");
  }
  void download(void* dst, size_t n) override {
    check_fits(n);
    check_cuda(cudaMemcpy(dst, data_, n, cudaMemcpyDeviceToHost), "cudaMemcpy to the host");
  }

 private:
  int device_;
  void* data_ = nullptr;
};

}  // namespace

NcclCommunicator::NcclCommunicator(Communicator& bootstrap, CommOptions options, int device)
    : options_(options), rank_(bootstrap.rank()), size_(bootstrap.size()), device_(device) {
  const std::string who = "NCCL setup on rank " + std::to_string(rank_);
  int devices = 0;
  check_cuda(cudaGetDeviceCount(&devices), who + ": cudaGetDeviceCount");
  if (devices == 0) throw CommError(who + ": no CUDA device is visible");
  if (device_ < 0) device_ = local_rank(bootstrap).rank % devices;
  if (device_ >= devices) {
    throw std::invalid_argument(who + ": device " + std::to_string(device_) + " of " +
                                std::to_string(devices) + " visible");
  }
  ncclUniqueId id{};
  if (rank_ == 0 && ncclGetUniqueId(&id) != ncclSuccess) {
    throw CommError(who + ": ncclGetUniqueId failed");
  }
  bootstrap.broadcast(CommSpan(&id, sizeof(id), CommDType::kU8), 0);
  check_cuda(cudaSetDevice(device_), who + ": cudaSetDevice");
  try {
    check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), who + ": stream");
    check_cuda(cudaMalloc(&scratch_, sizeof(int32_t)), who + ": scratch buffer");
    ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
    config.blocking = 0;  // calls return at once; run() polls with a deadline
    const ncclResult_t rc = ncclCommInitRankConfig(&comm_, size_, id, rank_, &config);
    if (rc != ncclSuccess && rc != ncclInProgress) {
      throw CommError(who + ": ncclCommInitRankConfig failed: " + ncclGetErrorString(rc));
    }
    wait(who, false);
  } catch (...) {
    release_cuda();  // no destructor runs for a constructor that throws
    throw;
  }
}

void NcclCommunicator::release_cuda() {
  if (scratch_) cudaFree(scratch_);
  if (stream_) cudaStreamDestroy(stream_);
  scratch_ = nullptr;
  stream_ = nullptr;
}

NcclCommunicator::~NcclCommunicator() {
  cudaSetDevice(device_);
  if (comm_ && !aborted_) {
    // Finalize flushes outstanding work; a peer that is gone would make it hang: abort then.
    ncclResult_t state = ncclCommFinalize(comm_);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (state == ncclInProgress && std::chrono::steady_clock::now() < give_up) {
      ncclCommGetAsyncError(comm_, &state);
    }
    if (state == ncclSuccess) {
      ncclCommDestroy(comm_);
    } else {
      ncclCommAbort(comm_);
    }
  }
  release_cuda();
}

std::unique_ptr<CommBuffer> NcclCommunicator::allocate(size_t bytes) {
  return std::make_unique<CudaCommBuffer>(bytes, device_);
}

std::string NcclCommunicator::nccl_error(ncclResult_t rc) const {
  return std::string("NCCL error: ") + ncclGetErrorString(rc) + " (" + ncclGetLastError(comm_) +
         ")";
}

void NcclCommunicator::abort_comm() {
  if (comm_ && !aborted_) ncclCommAbort(comm_);
  aborted_ = true;
  set_in_flight_op(nullptr);
}

void NcclCommunicator::wait(const std::string& what, bool drain_stream) {
  const auto start = std::chrono::steady_clock::now();
  while (true) {
    ncclResult_t state = ncclSuccess;
    ncclCommGetAsyncError(comm_, &state);
    if (state != ncclSuccess && state != ncclInProgress) {
      const std::string why = nccl_error(state);
      abort_comm();
      throw CommError(what + " failed: " + why);
    }
    if (state == ncclSuccess) {
      if (!drain_stream) return;
      const cudaError_t q = cudaStreamQuery(stream_);
      if (q == cudaSuccess) return;
      if (q != cudaErrorNotReady) {
        abort_comm();
        throw CommError(what + " failed: CUDA error: " + cudaGetErrorString(q));
      }
    }
    const std::chrono::duration<double> waited = std::chrono::steady_clock::now() - start;
    if (options_.timeout_s > 0 && waited.count() > options_.timeout_s) {
      abort_comm();
      throw CommTimeoutError(what + " did not complete within the " +
                             seconds_text(options_.timeout_s) +
                             " deadline: a peer rank died, hangs, or called a different "
                             "operation; the NCCL communicator is aborted");
    }
    std::this_thread::yield();
  }
}

void NcclCommunicator::run(CommOp op, const std::function<ncclResult_t()>& enqueue) {
  if (aborted_) {
    throw CommError(where(op) + ": the NCCL communicator was aborted after an earlier error");
  }
  check_cuda(cudaSetDevice(device_), where(op) + ": cudaSetDevice");
  set_in_flight_op(comm_op_name(op));
  const ncclResult_t launched = enqueue();
  if (launched != ncclSuccess && launched != ncclInProgress) {
    const std::string why = nccl_error(launched);
    abort_comm();
    throw CommError(where(op) + " failed: " + why);
  }
  wait(where(op), true);
  set_in_flight_op(nullptr);
}

void NcclCommunicator::do_all_reduce(ConstCommSpan send, CommSpan recv, ReduceOp op) {
  run(CommOp::kAllReduce, [&] {
    return ncclAllReduce(send.data(), recv.data(), recv.count(), nccl_datatype(recv.dtype()),
                         nccl_op(op), comm_, stream_);
  });
}

void NcclCommunicator::do_all_gather(ConstCommSpan send, CommSpan recv) {
  run(CommOp::kAllGather, [&] {
    return ncclAllGather(send.data(), recv.data(), send.count(), nccl_datatype(send.dtype()), comm_,
                         stream_);
  });
}

void NcclCommunicator::do_reduce_scatter(ConstCommSpan send, CommSpan recv, ReduceOp op) {
  run(CommOp::kReduceScatter, [&] {
    return ncclReduceScatter(send.data(), recv.data(), recv.count(), nccl_datatype(send.dtype()),
                             nccl_op(op), comm_, stream_);
  });
}

void NcclCommunicator::do_all_to_all(ConstCommSpan send, CommSpan recv) {
  const std::vector<size_t> counts(static_cast<size_t>(size_),
                                   send.count() / static_cast<size_t>(size_));
  exchange(CommOp::kAllToAll, send, counts, recv, counts);
}

void NcclCommunicator::do_all_to_all_v(ConstCommSpan send, std::span<const size_t> send_counts,
                                       CommSpan recv, std::span<const size_t> recv_counts) {
  exchange(CommOp::kAllToAllV, send, send_counts, recv, recv_counts);
}

// NCCL has no all-to-all: grouped sends and receives to every peer are how it is done.
void NcclCommunicator::exchange(CommOp op, ConstCommSpan send, std::span<const size_t> send_counts,
                                CommSpan recv, std::span<const size_t> recv_counts) {
  const ncclDataType_t type = nccl_datatype(send.dtype());
  run(op, [&] {
    ncclGroupStart();
    size_t sent = 0, received = 0;
    for (int peer = 0; peer < size_; ++peer) {
      const size_t p = static_cast<size_t>(peer);
      if (send_counts[p]) {
        ncclSend(at(send.data(), sent, send.dtype()), send_counts[p], type, peer, comm_, stream_);
      }
      if (recv_counts[p]) {
        ncclRecv(at(recv.data(), received, recv.dtype()), recv_counts[p], type, peer, comm_,
                 stream_);
      }
      sent += send_counts[p];
      received += recv_counts[p];
    }
    return ncclGroupEnd();
  });
}

void NcclCommunicator::do_send(ConstCommSpan data, int peer) {
  run(CommOp::kSend, [&] {
    return ncclSend(data.data(), data.count(), nccl_datatype(data.dtype()), peer, comm_, stream_);
  });
}

void NcclCommunicator::do_recv(CommSpan data, int peer) {
  run(CommOp::kRecv, [&] {
    return ncclRecv(data.data(), data.count(), nccl_datatype(data.dtype()), peer, comm_, stream_);
  });
}

void NcclCommunicator::do_send_recv(ConstCommSpan send, int dst, CommSpan recv, int src) {
  run(CommOp::kSendRecv, [&] {
    ncclGroupStart();
    ncclSend(send.data(), send.count(), nccl_datatype(send.dtype()), dst, comm_, stream_);
    ncclRecv(recv.data(), recv.count(), nccl_datatype(recv.dtype()), src, comm_, stream_);
    return ncclGroupEnd();
  });
}

void NcclCommunicator::do_broadcast(CommSpan data, int root) {
  run(CommOp::kBroadcast, [&] {
    return ncclBroadcast(data.data(), data.data(), data.count(), nccl_datatype(data.dtype()), root,
                         comm_, stream_);
  });
}

void NcclCommunicator::do_barrier() {
  // NCCL has no barrier: an all-reduce of one value waits for every rank just the same.
  run(CommOp::kBarrier,
      [&] { return ncclAllReduce(scratch_, scratch_, 1, ncclInt32, ncclSum, comm_, stream_); });
}

}  // namespace infergate
