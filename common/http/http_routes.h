// What `serve` and `router` do alike with a request before their own work: find its route,
// refuse a wrong path (404), method (405 with Allow) or API key (401), and count the connection
// against --max-connections (a connection over it gets 503 and is closed).
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <atomic>
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "common/http/http_responses.h"

namespace infergate {

struct HttpRoute {
  const char* path;
  boost::beast::http::verb method;
  bool needs_key;  // /health and /metrics answer without one: probes and scrapers
};

// The request target's path, without the query.
std::string_view request_path(const HttpRequest& req);

// The refusal a request earns by its route: 404 (no route), 405 (another method), 401 (the route
// needs `api_key`, non-empty, and the request lacks "Authorization: Bearer KEY"). Else nullopt,
// with *route the one matched.
std::optional<HttpResponse> refuse_by_route(const HttpRequest& req,
                                            std::span<const HttpRoute> routes,
                                            const std::string& api_key, const HttpRoute** route);

// Counts a session among the open connections while it lives; the accept loop took the slot.
class ConnectionSlot {
 public:
  explicit ConnectionSlot(std::atomic<int>& open) : open_(open) {}
  ~ConnectionSlot() { --open_; }
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;

 private:
  std::atomic<int>& open_;
};

// A connection over --max-connections: 503 naming the limit, then closed (lingering a moment so
// the client reads the answer).
boost::asio::awaitable<void> refuse_over_connection_limit(boost::asio::ip::tcp::socket socket,
                                                          int max_connections,
                                                          std::string_view who);

}  // namespace infergate
