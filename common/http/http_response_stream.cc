#include "common/http/http_response_stream.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/read.hpp>
#include <limits>

namespace infergate {

namespace net = boost::asio;
namespace http = boost::beast::http;

HttpResponseStream::HttpResponseStream(HttpConnection& connection) : c_(connection) {
  // A stream is as long as the completion. Not boost::none: Boost 1.74 compares a
  // Content-Length with an empty limit as "exceeded".
  parser_.body_limit(std::numeric_limits<std::uint64_t>::max());
  parser_.eager(true);  // parse everything already read before reading more
}

net::awaitable<bool> HttpResponseStream::read_header() {
  co_await c_.with_stream([&](auto& stream) {
    return http::async_read_header(stream, c_.buffer, parser_,
                                   net::redirect_error(net::use_awaitable, ec_));
  });
  co_return !ec_;
}

net::awaitable<std::string_view> HttpResponseStream::read_piece() {
  while (!ec_ && !parser_.is_done()) {
    parser_.get().body().data = c_.body.data();
    parser_.get().body().size = c_.body.size();
    co_await c_.with_stream([&](auto& stream) {
      return http::async_read_some(stream, c_.buffer, parser_,
                                   net::redirect_error(net::use_awaitable, ec_));
    });
    if (ec_ == http::error::need_buffer) ec_ = {};  // the piece filled c_.body: hand it on
    if (ec_) break;
    const size_t n = c_.body.size() - parser_.get().body().size;
    if (n > 0) co_return std::string_view(c_.body.data(), n);
  }
  co_return std::string_view();
}

}  // namespace infergate
