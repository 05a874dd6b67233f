// One client connection: reads requests (keep-alive), routes them, writes responses. Runs as a
// coroutine on the connection's strand; a completion waits on the engine through an
// EventChannel and never blocks a thread.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "server/server_context.h"

namespace infergate {

// Routes: GET /health, /metrics, /v1/models; POST /v1/completions, /v1/chat/completions
// (docs/server.md). The caller has counted the connection in context.open_connections; the
// session gives it back when it ends.
boost::asio::awaitable<void> serve_session(boost::asio::ip::tcp::socket socket,
                                           ServerContext& context);

// A connection over --max-connections: 503 at once, then closed (within a few seconds).
boost::asio::awaitable<void> refuse_connection(boost::asio::ip::tcp::socket socket,
                                               ServerContext& context);

}  // namespace infergate
