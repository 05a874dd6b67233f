#include "router/replica_attempt.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <vector>

#include "common/http/http_request_text.h"
#include "common/http/http_response_stream.h"
#include "common/http/sse_parser.h"
#include "common/util/clock.h"
#include "router/replica_watch.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using net::ip::tcp;

// A non-streamed answer is read whole before it is relayed (so garbage can still be retried);
// one larger than this is a failure.
constexpr size_t kMaxBufferedAnswer = size_t(64) << 20;

AttemptResult retryable(std::string detail) {
  return {AttemptOutcome::kRetryable, 0, std::move(detail), false};
}

std::string request_text(const HttpRequest& req, const std::string& body, const HttpUrl& url,
                         const RouterContext& ctx) {
  const std::string path(req.target());
  if (req.method() == http::verb::get)
    return http_get(url, path, HttpAccess(ctx.options.upstream_api_key));
  return http_post_json(url, path, HttpAccess(ctx.options.upstream_api_key), body);
}

}  // namespace

net::awaitable<bool> connect_to_replica(HttpConnection& c, const HttpUrl& url,
                                        const RouterContext& ctx, beast::error_code& ec) {
  c.stream.expires_after(seconds_to_duration(ctx.options.connect_timeout_s));
  auto token = net::redirect_error(net::use_awaitable, ec);
  const net::ip::address address = net::ip::make_address(url.host, ec);
  if (!ec) {
    co_await c.stream.async_connect(tcp::endpoint(address, url.port), token);
  } else {  // a host name
    ec = {};
    tcp::resolver resolver(co_await net::this_coro::executor);
    const auto endpoints =
        co_await resolver.async_resolve(url.host, std::to_string(url.port), token);
    if (ec) co_return false;
    co_await c.stream.async_connect(endpoints, token);
  }
  if (ec) co_return false;
  c.stream.socket().set_option(tcp::no_delay(true), ec);
  co_return !ec;
}

namespace {

// The answer, read whole (a non-streamed completion, an error, /v1/models).
net::awaitable<AttemptResult> relay_whole(beast::tcp_stream& client, const HttpRequest& req,
                                          HttpConnection& c, HttpResponseStream& answer,
                                          const RelayedStream& relayed, ReplicaWatch& watch,
                                          const RouterContext& ctx) {
  std::string body;
  for (;;) {
    c.stream.expires_after(seconds_to_duration(ctx.options.stall_timeout_s));
    const std::string_view piece = co_await answer.read_piece();
    if (piece.empty()) break;
    watch.progressed();
    if (body.size() + piece.size() > kMaxBufferedAnswer) {
      co_return retryable("the replica's answer is larger than 64 MiB");
    }
    body.append(piece);
  }
  if (answer.ec()) co_return retryable("the answer broke off: " + answer.ec().message());
  const int status = answer.status();
  if (status == 429 || status >= 500) {
    co_return retryable("the replica answered " + std::to_string(status) + ": " +
                        body.substr(0, 300));
  }
  const std::string content_type = answer.header(http::field::content_type);
  if (content_type.starts_with("application/json") && !nlohmann::json::accept(body)) {
    co_return retryable("the replica's answer is not JSON");
  }
  HttpResponse res(http::status(status), req.version());
  res.set(http::field::content_type, content_type);
  res.keep_alive(req.keep_alive());
  res.body() = status == 200 ? relayed.with_kv_transfer(std::move(body)) : std::move(body);
  res.prepare_payload();
  beast::error_code ec;
  co_await send(client, std::move(res), ec, ctx.options.idle_timeout_s);
  if (ec) co_return AttemptResult{AttemptOutcome::kClientGone, status, ec.message(), true};
  co_return AttemptResult{AttemptOutcome::kAnswered, status, "", true};
}

net::awaitable<void> write_chunk(beast::tcp_stream& client, const std::string& data,
                                 const RouterContext& ctx, beast::error_code& ec) {
  if (ec) co_return;
  arm_write_timeout(client, ctx.options.idle_timeout_s);
  co_await net::async_write(client, http::make_chunk(net::buffer(data)),
                            net::redirect_error(net::use_awaitable, ec));
}

net::awaitable<void> write_last_chunk(beast::tcp_stream& client, const RouterContext& ctx,
                                      beast::error_code& ec) {
  if (ec) co_return;
  arm_write_timeout(client, ctx.options.idle_timeout_s);
  co_await net::async_write(client, http::make_chunk_last(),
                            net::redirect_error(net::use_awaitable, ec));
}

// A streamed 200 answer, event by event. The client's header goes out with the first event of
// the first replica, once it is known to be a real one; a resuming replica's events continue
// the same stream.
net::awaitable<AttemptResult> relay_stream(beast::tcp_stream& client, const HttpRequest& req,
                                           HttpConnection& c, HttpResponseStream& answer,
                                           RelayedStream& relayed, ReplicaWatch& watch,
                                           RouterContext& ctx) {
  SseParser sse;
  std::vector<std::string> events;
  bool relayed_any = false;  // by this replica
  beast::error_code ec;
  bool broken = false;
  for (;;) {
    c.stream.expires_after(seconds_to_duration(ctx.options.stall_timeout_s));
    const std::string_view piece = co_await answer.read_piece();
    if (piece.empty()) break;
    watch.progressed();
    events.clear();
    try {
      sse.feed(piece, events);
    } catch (const std::exception&) {
      broken = true;
      break;
    }
    for (const std::string& data : events) {
      std::optional<std::string> out = relayed.relay(data);
      if (!out) {
        broken = true;
        break;
      }
      if (!relayed.started()) {
        co_await send_event_stream_header(client, req, ec, ctx.options.idle_timeout_s);
        relayed.start();
      }
      if (relayed.broke_ns() != 0) {  // the first event after a migration
        ctx.metrics.resumed(double(now_ns() - relayed.broke_ns()) * 1e-9);
        relayed.resumed();
      }
      relayed_any = true;
      co_await write_chunk(client, "data: " + *out + "\n\n", ctx, ec);
      if (ec) co_return AttemptResult{AttemptOutcome::kClientGone, 200, ec.message(), true};
    }
    if (broken) break;
  }
  const bool whole = !broken && answer.done() && !answer.ec() && !sse.pending();
  if (!relayed_any) {
    co_return retryable(whole ? "the replica's stream ended without an event"
                              : "the stream broke off before its first event: " +
                                    (answer.ec() ? answer.ec().message() : "a broken event"));
  }
  if (!whole && !relayed.finished()) {
    co_return AttemptResult{
        AttemptOutcome::kBroken, 200,
        "the replica failed mid-stream: " +
            (answer.ec() ? answer.ec().message() : std::string("a broken event")),
        false};
  }
  // The answer is whole (its replica may have failed after the last token: the end is ours).
  if (!relayed.done_sent()) co_await write_chunk(client, "data: [DONE]\n\n", ctx, ec);
  co_await write_last_chunk(client, ctx, ec);
  if (ec) co_return AttemptResult{AttemptOutcome::kClientGone, 200, ec.message(), whole};
  co_return AttemptResult{AttemptOutcome::kAnswered, 200, "", whole};
}

}  // namespace

namespace {

net::awaitable<AttemptResult> attempt_at(beast::tcp_stream& client, const HttpRequest& req,
                                         const std::string& body, const ReplicaLease& lease,
                                         bool stream, RelayedStream& relayed, RouterContext& ctx,
                                         HttpConnection& c, ReplicaWatch& watch) {
  const HttpUrl& replica = lease.url;
  beast::error_code ec;
  const std::string text = request_text(req, body, replica, ctx);
  co_await net::async_write(c.stream, net::buffer(text),
                            net::redirect_error(net::use_awaitable, ec));
  if (ec) co_return retryable("cannot send to " + replica.text() + ": " + ec.message());
  c.stream.expires_after(seconds_to_duration(ctx.options.first_byte_timeout_s));
  HttpResponseStream answer(c);
  if (!co_await answer.read_header()) {
    co_return retryable(replica.text() + " did not answer: " + answer.ec().message());
  }
  watch.progressed();
  const bool event_stream =
      answer.header(http::field::content_type).starts_with("text/event-stream");
  if (stream && answer.status() == 200 && event_stream) {
    co_return co_await relay_stream(client, req, c, answer, relayed, watch, ctx);
  }
  if (relayed.started()) {  // resuming: only a stream can go on with the client's
    co_return retryable(replica.text() + " answered " + std::to_string(answer.status()) +
                        " to a resume, not a stream (it may not be infergate serve)");
  }
  co_return co_await relay_whole(client, req, c, answer, relayed, watch, ctx);
}

}  // namespace

net::awaitable<AttemptResult> attempt_at_replica(beast::tcp_stream& client, const HttpRequest& req,
                                                 const std::string& body, const ReplicaLease& lease,
                                                 bool stream, RelayedStream& relayed,
                                                 RouterContext& ctx) {
  HttpConnection c(co_await net::this_coro::executor);
  beast::error_code ec;
  if (!co_await connect_to_replica(c, lease.url, ctx, ec)) {
    co_return retryable("cannot connect to " + lease.url.text() + ": " + ec.message());
  }
  ReplicaWatch watch(co_await net::this_coro::executor, ctx.replicas, lease,
                     ctx.options.health_timeout_s, c.stream);
  AttemptResult result =
      co_await attempt_at(client, req, body, lease, stream, relayed, ctx, c, watch);
  if (watch.fired() && result.outcome != AttemptOutcome::kAnswered) {
    result.detail += " (left: it failed its health check and sent nothing for " +
                     std::to_string(ctx.options.health_timeout_s) + " s)";
  }
  co_return result;
}

net::awaitable<void> end_stream_with_error(beast::tcp_stream& client, const std::string& detail,
                                           const RouterContext& ctx) {
  beast::error_code ec;
  co_await write_chunk(client, "data: " + ApiError(502, detail).to_json().dump() + "\n\n", ctx, ec);
  co_await write_last_chunk(client, ctx, ec);
}

}  // namespace infergate
