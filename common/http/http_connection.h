// One TCP connection of the openai target's HTTP client, with the buffers its responses are
// read through. Kept open between requests (HTTP/1.1 keep-alive) in a ConnectionPool.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <array>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>

namespace infergate {

struct HttpConnection {
  explicit HttpConnection(const boost::asio::any_io_executor& executor) : stream(executor) {}

  // Connects to the first of `endpoints` that answers (TCP_NODELAY: a request is one write,
  // and Nagle's algorithm must not hold back any part of it).
  boost::asio::awaitable<void> connect(
      const boost::asio::ip::tcp::resolver::results_type& endpoints, boost::beast::error_code& ec);

  boost::beast::tcp_stream stream;
  boost::beast::flat_buffer buffer;  // bytes read from the socket, not yet parsed
  std::array<char, 8192> body{};     // where response body bytes land, piece by piece
  bool reused = false;               // served an earlier request
};

}  // namespace infergate
