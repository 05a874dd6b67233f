#include "common/http/connection_pool.h"

namespace infergate {

std::unique_ptr<HttpConnection> ConnectionPool::take() {
  if (idle_.empty()) return nullptr;
  std::unique_ptr<HttpConnection> c = std::move(idle_.back());
  idle_.pop_back();
  return c;
}

void ConnectionPool::put_back(std::unique_ptr<HttpConnection> connection) {
  connection->reused = true;
  connection->stream.expires_never();  // idle: no deadline until its next request sets one
  idle_.push_back(std::move(connection));
}

}  // namespace infergate
