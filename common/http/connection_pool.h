// The idle keep-alive connections of the HTTP client, reused most recent first (the one least
// likely to have been closed by the server meanwhile). One connection carries one request at a
// time, so the pool grows to the peak number of requests in flight. Event loop thread only.
#pragma once

#include <memory>
#include <vector>

#include "common/http/http_connection.h"

namespace infergate {

class ConnectionPool {
 public:
  // An idle connection, or nullptr when there is none.
  std::unique_ptr<HttpConnection> take();
  void put_back(std::unique_ptr<HttpConnection> connection);
  // Closes and drops every idle connection.
  void clear() { idle_.clear(); }
  size_t idle() const { return idle_.size(); }

 private:
  std::vector<std::unique_ptr<HttpConnection>> idle_;
};

}  // namespace infergate
