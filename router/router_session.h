// One client connection to the router: reads requests (keep-alive) under the router's limits and
// answers each: GET /health and /metrics itself; GET /v1/models, POST /v1/completions and
// /v1/chat/completions from a replica the policy picks, relayed as it arrives, retried on
// another replica while nothing has reached the client (docs/router.md).
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "router/router_context.h"

namespace infergate {

// The caller has counted the connection in context.open_connections; the session gives it back.
boost::asio::awaitable<void> serve_router_session(boost::asio::ip::tcp::socket socket,
                                                  RouterContext& context);

// A connection over --max-connections: 503 at once, then closed.
boost::asio::awaitable<void> refuse_router_connection(boost::asio::ip::tcp::socket socket,
                                                      RouterContext& context);

}  // namespace infergate
