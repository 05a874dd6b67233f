// The idle keep-alive connections of the HTTP client, reused most recent first (the one least
// likely to have been closed by the server meanwhile). One connection carries one request at a
// time, so the pool grows to the peak number of requests in flight. Event loop thread only.
//
// Servers close idle connections as they please (after each answer, after N requests, after a
// few seconds idle), often without a `Connection: close`: a connection whose peer has closed it
// (or sent something unasked) is dropped when it is taken, never handed out.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/http/http_connection.h"

namespace infergate {

class ConnectionPool {
 public:
  // An idle connection still open at the far end, or nullptr when there is none.
  std::unique_ptr<HttpConnection> take();
  void put_back(std::unique_ptr<HttpConnection> connection);
  // Closes and drops every idle connection.
  void clear() { idle_.clear(); }
  size_t idle() const { return idle_.size(); }
  // Idle connections dropped by take() because the server had closed them.
  int64_t dropped_closed() const { return dropped_closed_; }

 private:
  std::vector<std::unique_ptr<HttpConnection>> idle_;
  int64_t dropped_closed_ = 0;
};

// False when the peer has closed `connection` (end of stream, a reset) or sent bytes no
// request asked for: a look at the socket that neither waits nor consumes anything.
bool idle_connection_usable(HttpConnection& connection);

}  // namespace infergate
