// One connection of an HTTP client (the openai target's, the router's), with the buffers its
// responses are read through. Kept open between requests (HTTP/1.1 keep-alive) in a
// ConnectionPool. Over TLS (an https:// target) the bytes go through `tls`, layered on `stream`,
// which still carries the deadlines and is what closing closes.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <array>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <cstdint>
#include <optional>
#include <string>

namespace infergate {

struct HttpConnection {
  // `tls` null: plain HTTP. The context must outlive the connection.
  explicit HttpConnection(const boost::asio::any_io_executor& executor,
                          boost::asio::ssl::context* tls = nullptr);

  // Connects to the first of `endpoints` that answers (TCP_NODELAY: a request is one write,
  // and Nagle's algorithm must not hold back any part of it), then, over TLS, shakes hands with
  // `host` (its name goes out as SNI and is what the certificate must name).
  boost::asio::awaitable<void> connect(
      const boost::asio::ip::tcp::resolver::results_type& endpoints, const std::string& host,
      boost::beast::error_code& ec);

  // ec's message, with the certificate check's own reason when the TLS handshake failed on it
  // ("certificate verify failed: self-signed certificate in certificate chain").
  std::string describe(const boost::beast::error_code& ec);

  // Calls op with the stream bytes go through: `tls` when there is one, else `stream`.
  template <typename Op>
  auto with_stream(Op&& op) {
    return tls ? op(*tls) : op(stream);
  }

  boost::beast::tcp_stream stream;
  std::optional<boost::asio::ssl::stream<boost::beast::tcp_stream&>> tls;
  int64_t tls_handshake_ns = 0;      // the last handshake's time; 0 without TLS
  boost::beast::flat_buffer buffer;  // bytes read from the socket, not yet parsed
  std::array<char, 8192> body{};     // where response body bytes land, piece by piece
  bool reused = false;               // served an earlier request
};

}  // namespace infergate
