#include "common/http/http_routes.h"

#include "common/openai/openai_error.h"

namespace infergate {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

std::string_view request_path(const HttpRequest& req) {
  const std::string_view target(req.target().data(), req.target().size());
  return target.substr(0, target.find('?'));
}

std::optional<HttpResponse> refuse_by_route(const HttpRequest& req,
                                            std::span<const HttpRoute> routes,
                                            const std::string& api_key, const HttpRoute** route) {
  const std::string_view path = request_path(req);
  *route = nullptr;
  for (const HttpRoute& r : routes) {
    if (path == r.path) *route = &r;
  }
  if (!*route) return error_response(req, ApiError(404, "no route for " + std::string(path)));
  if (req.method() != (*route)->method) {
    HttpResponse res =
        error_response(req, ApiError(405, std::string(req.method_string()) + " is not allowed on " +
                                              std::string(path)));
    res.set(http::field::allow, (*route)->method == http::verb::post ? "POST" : "GET");
    return res;
  }
  if ((*route)->needs_key && !api_key.empty()) {
    const auto it = req.find(http::field::authorization);
    if (it == req.end() || it->value() != "Bearer " + api_key) {
      return error_response(
          req, ApiError(401, "a valid API key is required (Authorization: Bearer KEY)"));
    }
  }
  return std::nullopt;
}

net::awaitable<void> refuse_over_connection_limit(net::ip::tcp::socket socket, int max_connections,
                                                  std::string_view who) {
  beast::tcp_stream stream(std::move(socket));
  beast::error_code ec;
  HttpRequest head;
  head.keep_alive(false);
  co_await send(
      stream,
      error_response(head, ApiError(503, "the " + std::string(who) + " has its limit of " +
                                             std::to_string(max_connections) +
                                             " connections open (--max-connections); "
                                             "retry later")),
      ec, kLingerSeconds);
  if (!ec) co_await linger_close(stream, kLingerSeconds);
}

}  // namespace infergate
