#include "engine/comm/communicator.h"

#include <chrono>
#include <numeric>
#include <stdexcept>
#include <string>

#include "common/util/nvtx_range.h"

namespace infergate {

namespace {

std::string describe(ConstCommSpan s) {
  return std::to_string(s.count()) + " " + comm_dtype_name(s.dtype());
}

bool overlap(ConstCommSpan a, ConstCommSpan b) {
  const char* a0 = static_cast<const char*>(a.data());
  const char* b0 = static_cast<const char*>(b.data());
  return a.bytes() && b.bytes() && a0 < b0 + b.bytes() && b0 < a0 + a.bytes();
}

// Checks shared by the collectives with a send and a receive buffer.
void check_pair(const std::string& where, ConstCommSpan send, ConstCommSpan recv,
                size_t expected_recv, const std::string& rule, bool in_place_allowed) {
  if (send.dtype() != recv.dtype()) {
    throw std::invalid_argument(where + ": send holds " + comm_dtype_name(send.dtype()) +
                                ", recv holds " + comm_dtype_name(recv.dtype()));
  }
  if (recv.count() != expected_recv) {
    throw std::invalid_argument(where + ": recv has " + std::to_string(recv.count()) +
                                " elements, send " + std::to_string(send.count()) + "; " + rule);
  }
  const bool in_place = send.data() == recv.data() && send.count() == recv.count();
  if (overlap(send, recv) && !(in_place && in_place_allowed)) {
    throw std::invalid_argument(where + ": send and recv buffers overlap");
  }
}

}  // namespace

std::string Communicator::where(CommOp op) const {
  return std::string(comm_op_name(op)) + " on rank " + std::to_string(rank()) + " of " +
         std::to_string(size());
}

template <typename Transfer>
void Communicator::timed(CommOp op, size_t bytes, Transfer&& transfer) {
  NvtxRange range(comm_op_name(op));
  const auto start = std::chrono::steady_clock::now();
  transfer();
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  stats_.record(op, bytes, took.count());
}

void Communicator::check_peer(CommOp op, int peer, const char* role, bool self_allowed) const {
  if (peer < 0 || peer >= size()) {
    throw std::invalid_argument(where(op) + ": " + role + " " + std::to_string(peer) +
                                " is not a rank (0.." + std::to_string(size() - 1) + ")");
  }
  if (!self_allowed && peer == rank()) {
    throw std::invalid_argument(where(op) + ": " + role +
                                " is this rank itself; a blocking transfer to itself would "
                                "wait forever (use send_recv)");
  }
}

void Communicator::all_reduce(ConstCommSpan send, CommSpan recv, ReduceOp op) {
  check_pair(where(CommOp::kAllReduce), send, recv, send.count(), "they must be equal", true);
  timed(CommOp::kAllReduce, recv.bytes(), [&] { do_all_reduce(send, recv, op); });
}

void Communicator::all_gather(ConstCommSpan send, CommSpan recv) {
  const size_t n = static_cast<size_t>(size());
  check_pair(where(CommOp::kAllGather), send, recv, send.count() * n,
             ("recv must hold size() * send = " + std::to_string(n * send.count())), false);
  timed(CommOp::kAllGather, recv.bytes(), [&] { do_all_gather(send, recv); });
}

void Communicator::reduce_scatter(ConstCommSpan send, CommSpan recv, ReduceOp op) {
  const size_t n = static_cast<size_t>(size());
  const std::string w = where(CommOp::kReduceScatter);
  if (send.count() % n != 0) {
    throw std::invalid_argument(w + ": send has " + std::to_string(send.count()) +
                                " elements, not a multiple of size() = " + std::to_string(n));
  }
  check_pair(w, send, recv, send.count() / n,
             ("recv must hold send / size() = " + std::to_string(send.count() / n)), false);
  timed(CommOp::kReduceScatter, send.bytes(), [&] { do_reduce_scatter(send, recv, op); });
}

void Communicator::all_to_all(ConstCommSpan send, CommSpan recv) {
  const size_t n = static_cast<size_t>(size());
  const std::string w = where(CommOp::kAllToAll);
  if (send.count() % n != 0) {
    throw std::invalid_argument(w + ": send has " + std::to_string(send.count()) +
                                " elements, not a multiple of size() = " + std::to_string(n));
  }
  check_pair(w, send, recv, send.count(), "they must be equal", false);
  timed(CommOp::kAllToAll, send.bytes(), [&] { do_all_to_all(send, recv); });
}

void Communicator::all_to_all_v(ConstCommSpan send, std::span<const size_t> send_counts,
                                CommSpan recv, std::span<const size_t> recv_counts) {
  const size_t n = static_cast<size_t>(size());
  const std::string w = where(CommOp::kAllToAllV);
  if (send_counts.size() != n || recv_counts.size() != n) {
    throw std::invalid_argument(w + ": " + std::to_string(send_counts.size()) + " send and " +
                                std::to_string(recv_counts.size()) +
                                " recv counts; one per rank needed (" + std::to_string(n) + ")");
  }
  const size_t send_total = std::accumulate(send_counts.begin(), send_counts.end(), size_t{0});
  const size_t recv_total = std::accumulate(recv_counts.begin(), recv_counts.end(), size_t{0});
  if (send_total != send.count()) {
    throw std::invalid_argument(w + ": send counts add up to " + std::to_string(send_total) +
                                " but send has " + describe(send));
  }
  check_pair(w, send, recv, recv_total, "recv counts add up to " + std::to_string(recv_total),
             false);
  timed(CommOp::kAllToAllV, send.bytes(),
        [&] { do_all_to_all_v(send, send_counts, recv, recv_counts); });
}

void Communicator::send(ConstCommSpan data, int peer) {
  check_peer(CommOp::kSend, peer, "peer", false);
  timed(CommOp::kSend, data.bytes(), [&] { do_send(data, peer); });
}

void Communicator::recv(CommSpan data, int peer) {
  check_peer(CommOp::kRecv, peer, "peer", false);
  timed(CommOp::kRecv, data.bytes(), [&] { do_recv(data, peer); });
}

void Communicator::send_recv(ConstCommSpan send, int dst, CommSpan recv, int src) {
  check_peer(CommOp::kSendRecv, dst, "dst", true);
  check_peer(CommOp::kSendRecv, src, "src", true);
  const std::string w = where(CommOp::kSendRecv);
  if (send.dtype() != recv.dtype()) {
    throw std::invalid_argument(w + ": send holds " + comm_dtype_name(send.dtype()) +
                                ", recv holds " + comm_dtype_name(recv.dtype()));
  }
  if (overlap(send, recv)) throw std::invalid_argument(w + ": send and recv buffers overlap");
  timed(CommOp::kSendRecv, send.bytes(), [&] { do_send_recv(send, dst, recv, src); });
}

void Communicator::broadcast(CommSpan data, int root) {
  check_peer(CommOp::kBroadcast, root, "root", true);
  timed(CommOp::kBroadcast, data.bytes(), [&] { do_broadcast(data, root); });
}

void Communicator::barrier() {
  timed(CommOp::kBarrier, 0, [&] { do_barrier(); });
}

}  // namespace infergate
