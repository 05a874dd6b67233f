// Takes an attempt off a replica that stopped answering: once the replica's health check has
// failed since the attempt chose it, and nothing has come from it for --health-timeout-s, its
// connection is shut down. Before the first event reaches the client the attempt is then
// retried elsewhere; after it the stream migrates, as when a replica is killed. Without this a
// replica that accepts connections but never answers (stopped, wedged) would hold its requests
// for --first-byte-timeout-s or --stall-timeout-s (120 s each). A replica that is slow but
// still sending keeps its streams: only silence counts.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/any_io_executor.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <memory>

#include "router/policy/replica_set.h"

namespace infergate {

class ReplicaWatch {
 public:
  // Watches `stream` (the connection to lease.replica) from now until destroyed, on `executor`
  // (the attempt's strand).
  ReplicaWatch(const boost::asio::any_io_executor& executor, const ReplicaSet& set,
               const ReplicaLease& lease, double quiet_s, boost::beast::tcp_stream& stream);
  ~ReplicaWatch();
  ReplicaWatch(const ReplicaWatch&) = delete;
  ReplicaWatch& operator=(const ReplicaWatch&) = delete;

  void progressed();   // bytes came from the replica
  bool fired() const;  // the connection was shut down by the watch

  struct State;  // replica_watch.cc's

 private:
  std::shared_ptr<State> state_;  // shared with the timer's handler, which may outlive this
};

}  // namespace infergate
