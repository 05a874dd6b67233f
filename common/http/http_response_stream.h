// One HTTP/1.1 response read off a connection as its bytes arrive: the header first, then the
// body piece by piece (chunked, Content-Length or close-delimited bodies alike), so a caller can
// act on each piece (relay it, time it) before the next is read.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <string>
#include <string_view>

#include "common/http/http_connection.h"

namespace infergate {

class HttpResponseStream {
 public:
  explicit HttpResponseStream(HttpConnection& connection);

  // The status line and header; false on a transport failure (ec() says which).
  boost::asio::awaitable<bool> read_header();
  // The next body bytes (valid until the next call), or empty once the body is complete (done())
  // or the transport failed (ec()).
  boost::asio::awaitable<std::string_view> read_piece();

  int status() const { return int(parser_.get().result_int()); }
  std::string header(boost::beast::http::field f) const { return std::string(parser_.get()[f]); }
  bool got_bytes() const { return parser_.got_some(); }  // a stale connection fails before any
  bool done() const { return parser_.is_done(); }
  bool keep_alive() const { return parser_.is_done() && parser_.get().keep_alive(); }
  const boost::beast::error_code& ec() const { return ec_; }

 private:
  HttpConnection& c_;
  boost::beast::http::response_parser<boost::beast::http::buffer_body> parser_;
  boost::beast::error_code ec_;
};

}  // namespace infergate
