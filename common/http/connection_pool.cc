#include "common/http/connection_pool.h"

#include <sys/socket.h>

#include <cerrno>

namespace infergate {

bool idle_connection_usable(HttpConnection& connection) {
  if (connection.buffer.size() > 0) return false;  // bytes after the last answer: not ours
  auto& socket = connection.stream.socket();
  if (!socket.is_open()) return false;
  char byte;
  const ssize_t n = ::recv(socket.native_handle(), &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  if (n < 0) return errno == EAGAIN || errno == EWOULDBLOCK;  // nothing to read: still open
  return false;  // 0: the peer closed it; > 0: it sent something unasked (a 408, say)
}

std::unique_ptr<HttpConnection> ConnectionPool::take() {
  while (!idle_.empty()) {
    std::unique_ptr<HttpConnection> c = std::move(idle_.back());
    idle_.pop_back();
    if (idle_connection_usable(*c)) return c;
    ++dropped_closed_;
  }
  return nullptr;
}

void ConnectionPool::put_back(std::unique_ptr<HttpConnection> connection) {
  connection->reused = true;
  connection->stream.expires_never();  // idle: no deadline until its next request sets one
  idle_.push_back(std::move(connection));
}

}  // namespace infergate
