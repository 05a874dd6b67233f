#include "common/http/http_response_reader.h"

#include "common/http/http_response_stream.h"
#include "common/util/clock.h"

namespace infergate {

namespace net = boost::asio;
namespace http = boost::beast::http;

net::awaitable<HttpResponseRead> read_http_response(HttpConnection& c,
                                                    const BodyPieceSink& on_body) {
  HttpResponseRead r;
  HttpResponseStream response(c);
  const bool header = co_await response.read_header();
  r.got_bytes = response.got_bytes();
  if (!header) {
    r.ec = response.ec();
    co_return r;
  }
  r.status = response.status();
  r.content_type = response.header(http::field::content_type);
  for (;;) {
    const std::string_view piece = co_await response.read_piece();
    if (piece.empty()) break;
    if (r.status == 200) {
      on_body(piece, now_ns());
    } else if (r.error_body.size() < HttpResponseRead::kMaxErrorBody) {
      r.error_body.append(piece.substr(0, HttpResponseRead::kMaxErrorBody - r.error_body.size()));
    }
  }
  r.ec = response.ec();
  if (r.ec) co_return r;
  r.complete = true;
  r.keep_alive = response.keep_alive();
  co_return r;
}

}  // namespace infergate
