#include "common/http/http_response_reader.h"

#include <limits>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>

#include "common/util/clock.h"

namespace infergate {

namespace net = boost::asio;
namespace http = boost::beast::http;

net::awaitable<HttpResponseRead> read_http_response(HttpConnection& c,
                                                    const BodyPieceSink& on_body) {
  HttpResponseRead r;
  http::response_parser<http::buffer_body> parser;
  // A stream is as long as the completion. Not boost::none: Boost 1.74 compares a
  // Content-Length with an empty limit as "exceeded".
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
  parser.eager(true);  // parse everything already read before reading more
  co_await http::async_read_header(c.stream, c.buffer, parser,
                                   net::redirect_error(net::use_awaitable, r.ec));
  r.got_bytes = parser.got_some();
  if (r.ec) co_return r;
  r.status = int(parser.get().result_int());
  r.content_type = std::string(parser.get()[http::field::content_type]);
  while (!parser.is_done()) {
    parser.get().body().data = c.body.data();
    parser.get().body().size = c.body.size();
    co_await http::async_read_some(c.stream, c.buffer, parser,
                                   net::redirect_error(net::use_awaitable, r.ec));
    if (r.ec == http::error::need_buffer) r.ec = {};  // the piece filled c.body: hand it on
    if (r.ec) co_return r;
    const size_t n = c.body.size() - parser.get().body().size;
    if (n == 0) continue;
    const std::string_view piece(c.body.data(), n);
    if (r.status == 200) {
      on_body(piece, now_ns());
    } else if (r.error_body.size() < HttpResponseRead::kMaxErrorBody) {
      r.error_body.append(piece.substr(0, HttpResponseRead::kMaxErrorBody - r.error_body.size()));
    }
  }
  r.complete = true;
  r.keep_alive = parser.get().keep_alive();
  co_return r;
}

}  // namespace infergate
