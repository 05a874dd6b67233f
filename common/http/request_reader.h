// Reads one request off a keep-alive connection under a server's limits, so no client can hold
// a connection, a thread or a buffer for ever: the first byte within --idle-timeout-s, the rest
// of the header within --header-timeout-s, the body within --body-timeout-s; a header of at most
// max_header_bytes, a request target of at most max_target_bytes, a body of at most
// max_body_bytes. Malformed or oversized requests get the status HTTP gives them (docs/server.md).
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core.hpp>
#include <optional>

#include "common/http/http_responses.h"

namespace infergate {

// What `infergate serve` and `infergate router` bound every request by (their flags of the same
// names).
struct HttpReadLimits {
  size_t max_body_bytes = size_t(1) << 20;  // larger bodies get 413
  // A connection is closed when a new request's first byte takes longer than idle_timeout_s,
  // the rest of its header longer than header_timeout_s or its body longer than
  // body_timeout_s (408 for the last two), or when one write waits on the client longer than
  // idle_timeout_s.
  double header_timeout_s = 10;
  double body_timeout_s = 30;
  double idle_timeout_s = 60;
  size_t max_header_bytes = size_t(32) << 10;  // request line and fields: larger gets 431
  size_t max_target_bytes = size_t(8) << 10;   // the request line: longer gets 414
};

struct ReadOutcome {
  std::optional<HttpRequest> request;  // a whole request
  // Instead: 400 (malformed), 408 (too slow), 413, 414 or 431 (too large). Send it, then close:
  // the rest of the request is unread.
  std::optional<HttpResponse> refusal;
  // Neither: the client closed, went idle past --idle-timeout-s, or the connection failed.
};

boost::asio::awaitable<ReadOutcome> read_request(boost::beast::tcp_stream& stream,
                                                 boost::beast::flat_buffer& buffer,
                                                 const HttpReadLimits& limits);

}  // namespace infergate
