// Reads one HTTP/1.1 response from a connection piece by piece, as its bytes arrive (chunked,
// Content-Length or close-delimited bodies alike): the body of a 200 answer goes to a callback
// with the time it was parsed off the socket; another status's body (an error message) is kept.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "common/http/http_connection.h"

namespace infergate {

struct HttpResponseRead {
  boost::beast::error_code ec;  // the transport failure (beast::error::timeout included), if any
  int status = 0;               // 0 when no header arrived
  std::string content_type;
  bool got_bytes = false;   // any byte of the response arrived (a stale keep-alive connection
                            // fails before any)
  bool complete = false;    // the whole message was read
  bool keep_alive = false;  // complete, and the connection may carry another request
  std::string error_body;   // status != 200: the body's first kMaxErrorBody bytes
  static constexpr size_t kMaxErrorBody = 64 * 1024;
};

// (bytes, clock time when they were parsed off the socket)
using BodyPieceSink = std::function<void(std::string_view, int64_t)>;

boost::asio::awaitable<HttpResponseRead> read_http_response(HttpConnection& connection,
                                                            const BodyPieceSink& on_body);

}  // namespace infergate
