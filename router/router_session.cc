#include "router/router_session.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <iostream>

#include "common/http/http_responses.h"
#include "common/http/http_routes.h"
#include "common/http/request_reader.h"
#include "common/util/clock.h"
#include "router/prefill_phase.h"
#include "router/replica_attempt.h"
#include "router/routed_request.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// /v1/* are answered by a replica; /health and /metrics are the router's own.
constexpr HttpRoute kRoutes[] = {
    {"/health", http::verb::get, false},
    {"/metrics", http::verb::get, false},
    {"/v1/models", http::verb::get, true},
    {"/v1/completions", http::verb::post, true},
    {"/v1/chat/completions", http::verb::post, true},
};

nlohmann::json replica_list(const ReplicaSet& set, int& healthy) {
  nlohmann::json list = nlohmann::json::array();
  for (const ReplicaSnapshot& r : set.snapshot()) {
    healthy += r.healthy ? 1 : 0;
    nlohmann::json entry = {{"url", r.url}, {"healthy", r.healthy}, {"outstanding", r.outstanding}};
    if (r.pid != 0) entry["pid"] = r.pid;
    list.push_back(entry);
  }
  return list;
}

// 200 while a request can be answered: a healthy replica (disaggregated: a healthy decode
// worker; without a prefill worker it computes prompts itself).
HttpResponse health(const HttpRequest& req, const RouterContext& ctx) {
  int healthy = 0, healthy_prefill = 0;
  nlohmann::json body = {{"replicas", replica_list(ctx.replicas, healthy)}};
  body["healthy_replicas"] = healthy;
  if (ctx.prefill) {
    body["prefill_replicas"] = replica_list(*ctx.prefill, healthy_prefill);
    body["healthy_prefill_replicas"] = healthy_prefill;
  }
  return json_response(req, healthy > 0 ? http::status::ok : http::status::service_unavailable,
                       body);
}

// The answer when the router itself answers, or none when a replica must.
std::optional<HttpResponse> answer_directly(const HttpRequest& req, RouterContext& ctx) {
  const HttpRoute* route = nullptr;
  if (auto refusal = refuse_by_route(req, kRoutes, ctx.options.api_key, &route)) return refusal;
  const std::string_view path = route->path;
  if (path == "/health") return health(req, ctx);
  if (path == "/metrics") {
    return text_response(
        req, "text/plain; version=0.0.4; charset=utf-8",
        ctx.metrics.render(ctx.replicas.snapshot(), ctx.waiters.waiting(),
                           ctx.prefill ? ctx.prefill->snapshot() : std::vector<ReplicaSnapshot>{}));
  }
  return std::nullopt;
}

// A replica for one attempt, waiting in the bounded queue while every healthy one is full.
// Else the refusal to send.
net::awaitable<std::optional<ReplicaLease>> lease_replica(const RoutedRequest& r,
                                                          const std::vector<int>& tried,
                                                          RouterContext& ctx,
                                                          std::optional<ApiError>& refusal) {
  const auto deadline =
      std::chrono::steady_clock::now() + seconds_to_duration(ctx.options.queue_timeout_s);
  bool queued = false;
  for (;;) {
    NoReplica why = NoReplica::kNoneHealthy;
    if (auto lease = ctx.replicas.acquire(r.prefix, tried, &why)) co_return lease;
    if (why == NoReplica::kNoneHealthy) {
      refusal = ApiError(503, tried.empty() ? "no replica is healthy; retry later"
                                            : "no other replica is healthy; retry later");
      co_return std::nullopt;
    }
    if (!queued && ctx.waiters.waiting() >= ctx.options.max_queued) {
      refusal =
          ApiError(429, "every replica is full and " + std::to_string(ctx.options.max_queued) +
                            " requests are queued (--max-queued); retry later");
      co_return std::nullopt;
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      refusal = ApiError(429,
                         "every replica stayed full for the queue timeout (--queue-timeout-s); "
                         "retry later");
      co_return std::nullopt;
    }
    queued = true;
    co_await ctx.waiters.wait(deadline);
  }
}

// Forwards a request to replicas until one answers or none is left to try; a stream whose
// replica fails mid-way goes on at another. Returns whether the connection may carry another
// request.
net::awaitable<bool> forward(beast::tcp_stream& stream, const HttpRequest& req,
                             const RoutedRequest& routed, RouterContext& ctx) {
  std::vector<int> tried;
  std::string last_failure;
  RelayedStream relayed(routed.choices);
  beast::error_code ec;
  // Disaggregated: the prompt is computed at a prefill worker first; only the first decode
  // attempt may read its KV (one that failed may have read and released it).
  std::string first_body;
  // (A request for several choices skips it: replicas hand over the KV of one.)
  if (ctx.prefill && req.method() == http::verb::post && routed.choices == 1) {
    const PrefillOutcome prefill = co_await run_prefill(request_path(req), req.body(), routed, ctx);
    ctx.metrics.prefilled(prefill.source.is_null(), prefill.attempts, prefill.prefill_s,
                          prefill.kv_bytes);
    if (!prefill.source.is_null()) first_body = decode_body(req.body(), prefill.source);
    relayed.add_to_last_chunk(prefill_record(prefill));
  }
  // Failures in a row without progress; a replica that relayed tokens before failing resets it.
  for (int failures = 0; failures < ctx.options.max_attempts;) {
    std::optional<ApiError> refusal;
    const std::optional<ReplicaLease> lease = co_await lease_replica(routed, tried, ctx, refusal);
    if (!lease && tried.empty()) {  // no replica to try at all: 503, or 429 when all are full
      ctx.metrics.answered(refusal->status());
      co_await send(stream, error_response(req, *refusal), ec, ctx.options.idle_timeout_s);
      co_return !ec && req.keep_alive();
    }
    if (!lease) {
      last_failure += std::string("; ") + refusal->what();
      break;
    }
    ctx.metrics.routed(lease->decision.reason);
    const size_t relayed_before = relayed.ids().size();
    // Named, not a conditional's temporary inside co_await: GCC 12 destroys such a temporary
    // twice.
    std::string body = std::exchange(first_body, {});
    if (body.empty()) body = relayed.resume_body(req.body());
    const AttemptResult result =
        co_await attempt_at_replica(stream, req, body, *lease, routed.stream, relayed, ctx);
    ctx.replicas.finish(lease->replica, result.replica_ok);
    ctx.waiters.wake_one();
    switch (result.outcome) {
      case AttemptOutcome::kAnswered:
        ctx.metrics.answered(result.status);
        co_return req.keep_alive() && result.replica_ok;
      case AttemptOutcome::kClientGone:
        ctx.metrics.client_gone();
        co_return false;
      case AttemptOutcome::kBroken:
        ctx.metrics.broken_stream();
        if (routed.choices > 1) {  // resume_token_ids continue one choice, not several
          last_failure = "replica " + std::to_string(lease->replica) + ": " + result.detail +
                         "; a stream of n > 1 choices is not resumed";
          failures = ctx.options.max_attempts;
          continue;
        }
        std::cerr << "router: replica " << lease->replica << ": " << result.detail
                  << "; resuming the stream after " << relayed.ids().size() << " tokens"
                  << std::endl;
        relayed.migrating(now_ns());
        break;
      case AttemptOutcome::kRetryable:
        ctx.metrics.retried();
        break;
    }
    last_failure = "replica " + std::to_string(lease->replica) + ": " + result.detail;
    tried.push_back(lease->replica);
    failures = relayed.ids().size() > relayed_before ? 0 : failures + 1;
  }
  if (relayed.started()) {  // the client has part of the answer: end it with the reason
    ctx.metrics.migration_failed();
    ctx.metrics.answered(502);
    co_await end_stream_with_error(
        stream, "the stream broke off and no replica could resume it (" + last_failure + ")", ctx);
    co_return false;
  }
  const ApiError error(502, "no replica answered (" + last_failure + ")");
  ctx.metrics.answered(error.status());
  co_await send(stream, error_response(req, error), ec, ctx.options.idle_timeout_s);
  co_return !ec && req.keep_alive();
}

}  // namespace

net::awaitable<void> serve_router_session(net::ip::tcp::socket socket, RouterContext& ctx) {
  const ConnectionSlot slot(ctx.open_connections);
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  beast::error_code ec;
  for (;;) {
    ReadOutcome read = co_await read_request(stream, buffer, ctx.options);
    if (read.refusal) {
      ctx.metrics.answered(read.refusal->result_int());
      co_await send(stream, std::move(*read.refusal), ec, kLingerSeconds);
      if (!ec) co_await linger_close(stream, kLingerSeconds);
      co_return;
    }
    if (!read.request) break;
    const HttpRequest& req = *read.request;
    const std::string_view path = request_path(req);
    std::optional<HttpResponse> direct = answer_directly(req, ctx);
    bool keep = req.keep_alive();
    if (!direct) {
      try {
        const RoutedRequest routed =
            req.method() == http::verb::get
                ? RoutedRequest{}
                : read_routed_request(req.body(), path == "/v1/chat/completions",
                                      ctx.options.prefix_chunk_bytes, ctx.options.token_block_size);
        keep = co_await forward(stream, req, routed, ctx);
      } catch (const ApiError& e) {
        direct = error_response(req, e);
      }
    }
    if (direct) {
      ctx.metrics.answered(direct->result_int());
      co_await send(stream, std::move(*direct), ec, ctx.options.idle_timeout_s);
    }
    if (ec || !keep) break;
  }
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
}

net::awaitable<void> refuse_router_connection(net::ip::tcp::socket socket, RouterContext& ctx) {
  ctx.metrics.answered(503);
  co_await refuse_over_connection_limit(std::move(socket), ctx.options.listen.max_connections,
                                        "router");
}

}  // namespace infergate
