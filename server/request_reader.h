// Reads one request off a keep-alive connection under the server's limits, so no client can
// hold a connection, a thread or a buffer for ever: the first byte within --idle-timeout-s, the
// rest of the header within --header-timeout-s, the body within --body-timeout-s; a header of at
// most max_header_bytes, a request target of at most max_target_bytes, a body of at most
// max_body_bytes. Malformed or oversized requests get the status HTTP gives them (docs/server.md).
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/beast/core.hpp>
#include <optional>

#include "server/http_responses.h"
#include "server/server_context.h"

namespace infergate {

struct ReadOutcome {
  std::optional<HttpRequest> request;  // a whole request
  // Instead: 400 (malformed), 408 (too slow), 413, 414 or 431 (too large). Send it, then close:
  // the rest of the request is unread.
  std::optional<HttpResponse> refusal;
  // Neither: the client closed, went idle past --idle-timeout-s, or the connection failed.
};

boost::asio::awaitable<ReadOutcome> read_request(boost::beast::tcp_stream& stream,
                                                 boost::beast::flat_buffer& buffer,
                                                 const ServerOptions& options);

}  // namespace infergate
