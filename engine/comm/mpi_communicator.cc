#include "engine/comm/mpi_communicator.h"

#include <unistd.h>

#include <climits>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/comm/comm_error.h"
#include "engine/comm/mpi_types.h"

namespace infergate {

namespace {

// Point-to-point messages of one communicator all use one tag: MPI keeps them in order.
constexpr int kTag = 0;

int rank_in(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size_of(MPI_Comm comm) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  return n;
}

std::string mpi_error_text(int rc) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  MPI_Error_string(rc, text, &len);
  return "MPI error " + std::to_string(rc) + ": " + std::string(text, static_cast<size_t>(len));
}

std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return name;
}

}  // namespace

MpiCommunicator::MpiCommunicator(CommOptions options, MPI_Comm base)
    : options_(options),
      rank_(rank_in(base)),
      size_(size_of(base)),
      watchdog_(options.timeout_s, [this](const auto& expiry) { on_deadline(expiry); }) {
  ArmedDeadline deadline(watchdog_, "communicator setup (MPI_Comm_dup)", 0);
  MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN);
  const int rc = MPI_Comm_dup(base, &comm_);
  if (rc != MPI_SUCCESS) {
    throw CommError("rank " + std::to_string(rank_) + " of " + std::to_string(size_) +
                    ": MPI_Comm_dup failed: " + mpi_error_text(rc));
  }
  MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
}

MpiCommunicator::~MpiCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

std::unique_ptr<CommBuffer> MpiCommunicator::allocate(size_t bytes) {
  return std::make_unique<HostCommBuffer>(bytes);
}

void MpiCommunicator::check(int rc, CommOp op) const {
  if (rc != MPI_SUCCESS) throw CommError(where(op) + " failed: " + mpi_error_text(rc));
}

int MpiCommunicator::mpi_count(size_t count, CommOp op) const {
  if (count > static_cast<size_t>(INT_MAX)) {
    throw std::invalid_argument(where(op) + ": " + std::to_string(count) +
                                " elements exceed MPI's int counts; split the transfer");
  }
  return static_cast<int>(count);
}

void MpiCommunicator::check_received(const MPI_Status& status, CommSpan recv, int src,
                                     CommOp op) const {
  int got = 0;
  MPI_Get_count(&status, mpi_datatype(recv.dtype()), &got);
  if (got != static_cast<int>(recv.count())) {
    throw CommError(where(op) + ": expected " + std::to_string(recv.count()) + " " +
                    comm_dtype_name(recv.dtype()) + " from rank " + std::to_string(src) + ", got " +
                    std::to_string(got));
  }
}

void MpiCommunicator::on_deadline(const DeadlineWatchdog::Expiry& e) const {
  const std::string what =
      e.bytes ? std::string(e.what) + " of " + std::to_string(e.bytes) + " bytes" : e.what;
  std::fprintf(stderr,
               "infergate: rank %d of %d (pid %d on %s): %s did not complete within the %g s "
               "deadline (waited %.2f s): a peer rank died, hangs, or called a different "
               "operation; ending the job (exit %d)\n",
               rank_, size_, static_cast<int>(getpid()), host_name().c_str(), what.c_str(),
               e.timeout_s, e.waited_s, kCommTimeoutExitCode);
  std::fflush(stderr);
  // _Exit, not MPI_Abort: MPI_Abort from this thread tears MPI down while the stuck thread still
  // polls inside the collective, which now and then crashed the rank (SIGSEGV) before mpirun had
  // registered the abort, and the job then ended with 139 instead of 124. A process that exits
  // without MPI_Finalize makes mpirun end the job just the same, with this exit status.
  std::_Exit(kCommTimeoutExitCode);
}

void MpiCommunicator::do_all_reduce(ConstCommSpan send, CommSpan recv, ReduceOp op) {
  const CommOp o = CommOp::kAllReduce;
  const int n = mpi_count(recv.count(), o);
  ArmedDeadline deadline(watchdog_, comm_op_name(o), recv.bytes());
  const void* src = send.data() == recv.data() ? MPI_IN_PLACE : send.data();
  check(MPI_Allreduce(src, recv.data(), n, mpi_datatype(recv.dtype()), mpi_op(op, recv.dtype()),
                      comm_),
        o);
}

void MpiCommunicator::do_all_gather(ConstCommSpan send, CommSpan recv) {
  const CommOp o = CommOp::kAllGather;
  const int n = mpi_count(send.count(), o);
  mpi_count(recv.count(), o);
  const MPI_Datatype type = mpi_datatype(send.dtype());
  ArmedDeadline deadline(watchdog_, comm_op_name(o), recv.bytes());
  check(MPI_Allgather(send.data(), n, type, recv.data(), n, type, comm_), o);
}

void MpiCommunicator::do_reduce_scatter(ConstCommSpan send, CommSpan recv, ReduceOp op) {
  const CommOp o = CommOp::kReduceScatter;
  const int n = mpi_count(recv.count(), o);
  mpi_count(send.count(), o);
  ArmedDeadline deadline(watchdog_, comm_op_name(o), send.bytes());
  check(MPI_Reduce_scatter_block(send.data(), recv.data(), n, mpi_datatype(send.dtype()),
                                 mpi_op(op, send.dtype()), comm_),
        o);
}

void MpiCommunicator::do_all_to_all(ConstCommSpan send, CommSpan recv) {
  const CommOp o = CommOp::kAllToAll;
  mpi_count(send.count(), o);
  const int block = static_cast<int>(send.count() / static_cast<size_t>(size_));
  const MPI_Datatype type = mpi_datatype(send.dtype());
  ArmedDeadline deadline(watchdog_, comm_op_name(o), send.bytes());
  check(MPI_Alltoall(send.data(), block, type, recv.data(), block, type, comm_), o);
}

void MpiCommunicator::do_all_to_all_v(ConstCommSpan send, std::span<const size_t> send_counts,
                                      CommSpan recv, std::span<const size_t> recv_counts) {
  const CommOp o = CommOp::kAllToAllV;
  mpi_count(send.count(), o);  // the totals bound every count and displacement
  mpi_count(recv.count(), o);
  std::vector<int> sc(send_counts.begin(), send_counts.end());
  std::vector<int> rc(recv_counts.begin(), recv_counts.end());
  std::vector<int> sd(sc.size(), 0), rd(rc.size(), 0);
  for (size_t j = 1; j < sc.size(); ++j) {
    sd[j] = sd[j - 1] + sc[j - 1];
    rd[j] = rd[j - 1] + rc[j - 1];
  }
  const MPI_Datatype type = mpi_datatype(send.dtype());
  ArmedDeadline deadline(watchdog_, comm_op_name(o), send.bytes());
  check(MPI_Alltoallv(send.data(), sc.data(), sd.data(), type, recv.data(), rc.data(), rd.data(),
                      type, comm_),
        o);
}

void MpiCommunicator::do_send(ConstCommSpan data, int peer) {
  const CommOp o = CommOp::kSend;
  const int n = mpi_count(data.count(), o);
  ArmedDeadline deadline(watchdog_, comm_op_name(o), data.bytes());
  check(MPI_Send(data.data(), n, mpi_datatype(data.dtype()), peer, kTag, comm_), o);
}

void MpiCommunicator::do_recv(CommSpan data, int peer) {
  const CommOp o = CommOp::kRecv;
  const int n = mpi_count(data.count(), o);
  MPI_Status status;
  {
    ArmedDeadline deadline(watchdog_, comm_op_name(o), data.bytes());
    check(MPI_Recv(data.data(), n, mpi_datatype(data.dtype()), peer, kTag, comm_, &status), o);
  }
  check_received(status, data, peer, o);
}

void MpiCommunicator::do_send_recv(ConstCommSpan send, int dst, CommSpan recv, int src) {
  const CommOp o = CommOp::kSendRecv;
  const int ns = mpi_count(send.count(), o);
  const int nr = mpi_count(recv.count(), o);
  const MPI_Datatype type = mpi_datatype(send.dtype());
  MPI_Status status;
  {
    ArmedDeadline deadline(watchdog_, comm_op_name(o), send.bytes());
    check(MPI_Sendrecv(send.data(), ns, type, dst, kTag, recv.data(), nr, type, src, kTag, comm_,
                       &status),
          o);
  }
  check_received(status, recv, src, o);
}

void MpiCommunicator::do_broadcast(CommSpan data, int root) {
  const CommOp o = CommOp::kBroadcast;
  const int n = mpi_count(data.count(), o);
  ArmedDeadline deadline(watchdog_, comm_op_name(o), data.bytes());
  check(MPI_Bcast(data.data(), n, mpi_datatype(data.dtype()), root, comm_), o);
}

void MpiCommunicator::do_barrier() {
  ArmedDeadline deadline(watchdog_, comm_op_name(CommOp::kBarrier), 0);
  check(MPI_Barrier(comm_), CommOp::kBarrier);
}

}  // namespace infergate
