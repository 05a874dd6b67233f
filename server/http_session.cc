#include "server/http_session.h"

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "common/http/http_responses.h"
#include "common/http/http_routes.h"
#include "common/http/request_reader.h"
#include "common/util/clock.h"
#include "server/generation_handler.h"
#include "server/kv_handoff.h"
#include "server/openai/chat_request.h"
#include "server/openai/tokenize_request.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

constexpr HttpRoute kRoutes[] = {
    {"/health", http::verb::get, false},
    {"/metrics", http::verb::get, false},
    {"/v1/models", http::verb::get, true},
    {"/v1/completions", http::verb::post, true},
    {"/v1/chat/completions", http::verb::post, true},
    {"/tokenize", http::verb::post, true},
    {"/detokenize", http::verb::post, true},
};

// Every name the server answers to (--served-model-name), the reported one first.
nlohmann::json models_json(const ServerContext& ctx) {
  nlohmann::json data = nlohmann::json::array();
  std::vector<std::string> names = {ctx.model.name};
  names.insert(names.end(), ctx.model.other_names.begin(), ctx.model.other_names.end());
  for (const std::string& name : names) {
    data.push_back({{"id", name},
                    {"object", "model"},
                    {"created", ctx.created},
                    {"owned_by", "infergate"},
                    {"max_model_len", ctx.model.max_model_len},
                    {"vocab_size", ctx.model.vocab_size}});
  }
  return {{"object", "list"}, {"data", data}};
}

// The request's answer when it is not a generation (or a generation refused before it starts).
std::optional<HttpResponse> answer_directly(const HttpRequest& req, ServerContext& ctx) {
  const HttpRoute* route = nullptr;
  if (auto refusal = refuse_by_route(req, kRoutes, ctx.options.api_key, &route)) return refusal;
  const std::string_view path = route->path;
  if (path == "/health") return text_response(req, "text/plain", "ok");
  if (path == "/metrics") {
    const KvTransportStats transport_stats =
        ctx.kv_transport ? ctx.kv_transport->stats() : KvTransportStats{};
    return text_response(
        req, "text/plain; version=0.0.4; charset=utf-8",
        with_metrics_prefix(ctx.metrics.render(ctx.model.name, ctx.service.stats(),
                                               ctx.kv_transport ? &transport_stats : nullptr),
                            ctx.options.metrics_prefix));
  }
  if (path == "/v1/models") return json_response(req, http::status::ok, models_json(ctx));
  if (path == "/tokenize" || path == "/detokenize") {
    try {
      return json_response(req, http::status::ok,
                           path == "/tokenize" ? answer_tokenize(req.body(), ctx.model)
                                               : answer_detokenize(req.body(), ctx.model));
    } catch (const ApiError& e) {
      ctx.metrics.request_refused(e.status());
      return error_response(req, e);
    }
  }
  return std::nullopt;
}

std::variant<CompletionRequest, ApiError> parse_generation(const HttpRequest& req,
                                                           std::string_view path,
                                                           const ServerContext& ctx) {
  try {
    CompletionRequest r = path == "/v1/chat/completions"
                              ? parse_chat_request(req.body(), ctx.model)
                              : parse_completion_request(req.body(), ctx.model);
    check_kv_transfer_role(r, ctx);
    return r;
  } catch (const ApiError& e) {
    return e;
  }
}

}  // namespace

net::awaitable<void> serve_session(net::ip::tcp::socket socket, ServerContext& ctx) {
  const ConnectionSlot slot(ctx.open_connections);
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  beast::error_code ec;
  for (;;) {
    ReadOutcome read = co_await read_request(stream, buffer, ctx.options);
    if (read.refusal) {
      ctx.metrics.request_refused(read.refusal->result_int());
      co_await send(stream, std::move(*read.refusal), ec, kLingerSeconds);
      if (!ec) co_await linger_close(stream, kLingerSeconds);
      co_return;
    }
    if (!read.request) break;
    const int64_t arrival_ns = now_ns();
    const HttpRequest& req = *read.request;
    bool keep = req.keep_alive();
    std::optional<HttpResponse> direct = answer_directly(req, ctx);
    if (!direct) {
      auto parsed = parse_generation(req, request_path(req), ctx);
      if (auto* refused = std::get_if<ApiError>(&parsed)) {
        ctx.metrics.request_refused(refused->status());
        direct = error_response(req, *refused);
      } else {
        keep = co_await serve_generation(stream, req, std::get<CompletionRequest>(parsed), ctx,
                                         arrival_ns) &&
               keep;
      }
    }
    if (direct) co_await send(stream, std::move(*direct), ec, ctx.options.idle_timeout_s);
    if (ec || !keep) break;
  }
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
}

net::awaitable<void> refuse_connection(net::ip::tcp::socket socket, ServerContext& ctx) {
  ctx.metrics.request_refused(503);
  co_await refuse_over_connection_limit(std::move(socket), ctx.options.max_connections, "server");
}

}  // namespace infergate
