#include "engine/server/http_session.h"

#include <ctime>
#include <optional>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "engine/server/completion_response.h"
#include "engine/server/event_channel.h"
#include "engine/server/openai_error.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

Response json_response(const Request& req, http::status status, const nlohmann::json& body) {
  Response res(status, req.version());
  res.set(http::field::content_type, "application/json");
  res.keep_alive(req.keep_alive());
  res.body() = dump_json(body);
  res.prepare_payload();
  return res;
}

Response error_response(const Request& req, const ApiError& e) {
  Response res = json_response(req, http::status(e.status()), e.to_json());
  if (e.status() == 401) res.set(http::field::www_authenticate, "Bearer");
  return res;
}

// Keeps the response alive in the coroutine frame until it is written.
net::awaitable<void> send(beast::tcp_stream& stream, Response res, beast::error_code& ec) {
  co_await http::async_write(stream, res, net::redirect_error(net::use_awaitable, ec));
}

bool authorized(const Request& req, const ServerContext& ctx) {
  if (ctx.options.api_key.empty()) return true;
  const auto it = req.find(http::field::authorization);
  return it != req.end() && it->value() == "Bearer " + ctx.options.api_key;
}

nlohmann::json models_json(const ServerContext& ctx) {
  return {{"object", "list"},
          {"data", nlohmann::json::array({{{"id", ctx.model.name},
                                           {"object", "model"},
                                           {"created", ctx.created},
                                           {"owned_by", "infergate"},
                                           {"max_model_len", ctx.model.max_model_len}}})}};
}

// Non-streaming: collects the whole completion, then answers once.
net::awaitable<Response> complete(const Request& req, const CompletionRequest& cr,
                                  const RequestId& id, ServerContext& ctx) {
  auto channel = std::make_shared<EventChannel>(co_await net::this_coro::executor);
  const int prompt_tokens = int(cr.prompt.size());
  ctx.service.submit(id, cr.prompt, cr.sampling,
                     [channel](ServiceEvent e) { channel->push(std::move(e)); });
  CompletionRenderer render(id, ctx.model.name, std::time(nullptr), ctx.model.tokenizer);
  std::vector<int32_t> ids;
  std::string text;
  for (;;) {
    for (ServiceEvent& e : co_await channel->next()) {
      if (!e.error.empty()) co_return error_response(req, ApiError(400, e.error));
      ids.insert(ids.end(), e.output.token_ids.begin(), e.output.token_ids.end());
      text += render.decode(e.output.token_ids);
      if (e.output.finished) {
        text += render.finish_text();
        co_return json_response(
            req, http::status::ok,
            render.completion(text, ids, e.output.finish_reason, prompt_tokens));
      }
    }
  }
}

// Streaming: SSE chunks over chunked transfer encoding. A failed write means the client has
// gone: the request is aborted so its KV blocks return at once. Returns false then.
net::awaitable<bool> stream_completion(beast::tcp_stream& stream, const Request& req,
                                       const CompletionRequest& cr, const RequestId& id,
                                       ServerContext& ctx) {
  auto channel = std::make_shared<EventChannel>(co_await net::this_coro::executor);
  ctx.service.submit(id, cr.prompt, cr.sampling,
                     [channel](ServiceEvent e) { channel->push(std::move(e)); });
  CompletionRenderer render(id, ctx.model.name, std::time(nullptr), ctx.model.tokenizer);
  beast::error_code ec;
  const auto write = [&](const std::string& data) -> net::awaitable<void> {
    co_await net::async_write(stream, http::make_chunk(net::buffer(data)),
                              net::redirect_error(net::use_awaitable, ec));
  };

  std::vector<ServiceEvent> first = co_await channel->next();
  if (!first.front().error.empty()) {
    co_await send(stream, error_response(req, ApiError(400, first.front().error)), ec);
    co_return !ec;
  }
  http::response<http::empty_body> head(http::status::ok, req.version());
  head.set(http::field::content_type, "text/event-stream");
  head.set(http::field::cache_control, "no-cache");
  head.keep_alive(req.keep_alive());
  head.chunked(true);
  http::response_serializer<http::empty_body> serializer(head);
  co_await http::async_write_header(stream, serializer,
                                    net::redirect_error(net::use_awaitable, ec));

  int completion_tokens = 0;
  std::vector<ServiceEvent> events = std::move(first);
  for (;;) {
    for (const ServiceEvent& e : events) {
      if (ec) break;
      const RequestOutput& o = e.output;
      completion_tokens += int(o.token_ids.size());
      std::string text = render.decode(o.token_ids);
      if (o.finished) text += render.finish_text();
      if (!o.token_ids.empty() || o.finished) {
        co_await write(sse_event(render.chunk(text, o.token_ids, o.finish_reason)));
      }
      if (o.finished && !ec) {
        if (cr.include_usage) {
          co_await write(sse_event(render.usage_chunk(o.num_prompt_tokens, completion_tokens)));
        }
        if (!ec) co_await write(kSseDone);
        if (!ec) {
          co_await net::async_write(stream, http::make_chunk_last(),
                                    net::redirect_error(net::use_awaitable, ec));
        }
        co_return !ec;
      }
    }
    if (ec) {
      ctx.service.abort(id);
      co_return false;
    }
    events = co_await channel->next();
  }
}

}  // namespace

net::awaitable<void> serve_session(net::ip::tcp::socket socket, ServerContext& ctx) {
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  beast::error_code ec;
  for (;;) {
    http::request_parser<http::string_body> parser;
    parser.body_limit(ctx.options.max_body_bytes);
    co_await http::async_read(stream, buffer, parser, net::redirect_error(net::use_awaitable, ec));
    if (ec == http::error::body_limit) {
      Request head;
      head.version(parser.get().version());
      head.keep_alive(false);  // the rest of the body is still unread
      Response res = error_response(
          head, ApiError(413, "the request body is larger than " +
                                  std::to_string(ctx.options.max_body_bytes) + " bytes"));
      co_await send(stream, std::move(res), ec);
      break;
    }
    if (ec) break;
    Request req = parser.release();
    const std::string target(req.target());
    const bool known = target == "/health" || target == "/v1/models" || target == "/v1/completions";
    const http::verb wanted = target == "/v1/completions" ? http::verb::post : http::verb::get;
    bool keep = req.keep_alive();
    if (!known) {
      co_await send(stream, error_response(req, ApiError(404, "no route for " + target)), ec);
    } else if (req.method() != wanted) {
      Response res = error_response(
          req, ApiError(405, std::string(req.method_string()) + " is not allowed on " + target));
      res.set(http::field::allow, wanted == http::verb::post ? "POST" : "GET");
      co_await send(stream, std::move(res), ec);
    } else if (target == "/health") {  // no key needed: load balancers probe it
      Response res(http::status::ok, req.version());
      res.set(http::field::content_type, "text/plain");
      res.keep_alive(keep);
      res.body() = "ok";
      res.prepare_payload();
      co_await send(stream, std::move(res), ec);
    } else if (!authorized(req, ctx)) {
      co_await send(stream,
                    error_response(req, ApiError(401,
                                                 "a valid API key is required "
                                                 "(Authorization: Bearer KEY)")),
                    ec);
    } else if (target == "/v1/models") {
      co_await send(stream, json_response(req, http::status::ok, models_json(ctx)), ec);
    } else {
      std::optional<CompletionRequest> cr;
      std::optional<ApiError> refused;
      try {
        cr = parse_completion_request(req.body(), ctx.model);
      } catch (const ApiError& e) {
        refused = e;  // no co_await inside a handler
      }
      if (refused) {
        co_await send(stream, error_response(req, *refused), ec);
      } else {
        const RequestId id = "cmpl-" + std::to_string(ctx.next_request++);
        if (cr->stream) {
          keep = co_await stream_completion(stream, req, *cr, id, ctx) && keep;
        } else {
          co_await send(stream, co_await complete(req, *cr, id, ctx), ec);
        }
      }
    }
    if (ec || !keep) break;
  }
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace infergate
