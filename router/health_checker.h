// Active health checks: every --health-interval-s, GET /health on each replica (a fresh
// connection, within --health-timeout-s); 200 puts it in rotation, anything else takes it out.
// A replica taken out by the circuit breaker (replica_set.h) comes back here.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>

#include "router/router_context.h"

namespace infergate {

// One checking loop per replica, each on its own strand of `io` (a replica that never answers
// delays no other's check), until `io` stops.
void start_health_checks(boost::asio::io_context& io, RouterContext& ctx);

// One check of one replica: true when GET /health answered 200 within the timeout.
boost::asio::awaitable<bool> replica_answers_health(const HttpUrl& url, double timeout_s);

}  // namespace infergate
