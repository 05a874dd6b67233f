#include "router/prefill_phase.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <vector>

#include "common/http/http_request_text.h"
#include "common/http/http_response_reader.h"
#include "common/util/clock.h"
#include "router/replica_attempt.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;

// A prefill answer holds one token and a KV source: anything near this size is not one.
constexpr size_t kMaxPrefillAnswer = size_t(1) << 20;

struct PrefillAttempt {
  bool ok = false;
  bool replica_ok = false;  // the worker behaved (an export it could not make is not its fault)
  std::string detail;
  nlohmann::json kv_transfer;
};

net::awaitable<PrefillAttempt> prefill_at(const HttpUrl& url, std::string_view path,
                                          const std::string& body, RouterContext& ctx) {
  HttpConnection c(co_await net::this_coro::executor);
  beast::error_code ec;
  if (!co_await connect_to_replica(c, url, ctx, ec)) {
    co_return PrefillAttempt{
        false, false, "cannot connect to " + url.text() + ": " + ec.message(), {}};
  }
  const std::string text =
      http_post_json(url, std::string(path), HttpAccess(ctx.options.upstream_api_key), body);
  co_await net::async_write(c.stream, net::buffer(text),
                            net::redirect_error(net::use_awaitable, ec));
  if (ec) co_return PrefillAttempt{false, false, "cannot send to " + url.text(), {}};
  c.stream.expires_after(seconds_to_duration(ctx.options.first_byte_timeout_s));
  std::string answer;
  bool too_large = false;
  const HttpResponseRead r = co_await read_http_response(c, [&](std::string_view piece, int64_t) {
    if (answer.size() + piece.size() > kMaxPrefillAnswer) too_large = true;
    if (!too_large) answer.append(piece);
  });
  if (r.ec || !r.complete) {
    co_return PrefillAttempt{false, false, url.text() + " did not answer: " + r.ec.message(), {}};
  }
  if (r.status != 200) {
    // A 4xx is the request's fault: the decode worker will answer it the same way.
    co_return PrefillAttempt{
        false,
        r.status < 500 && r.status != 429,
        url.text() + " answered " + std::to_string(r.status) + ": " + r.error_body.substr(0, 300),
        {}};
  }
  const nlohmann::json j = nlohmann::json::parse(answer, nullptr, false);
  if (too_large || !j.is_object() || !j.contains("kv_transfer") || !j["kv_transfer"].is_object()) {
    co_return PrefillAttempt{
        false, false, url.text() + "'s answer has no kv_transfer (is it --role prefill?)", {}};
  }
  co_return PrefillAttempt{true, true, "", j["kv_transfer"]};
}

}  // namespace

nlohmann::json prefill_record(const PrefillOutcome& o) {
  nlohmann::json j = {{"prefill_s", o.prefill_s},
                      {"prefill_attempts", o.attempts},
                      {"prefill_begin_ns", o.begin_ns},
                      {"prefill_end_ns", o.end_ns}};
  j["prefill_fallback"] = o.source.is_null() ? nlohmann::json(o.fallback) : nlohmann::json();
  return j;
}

std::string prefill_body(std::string_view body) {
  nlohmann::json j = nlohmann::json::parse(body);
  j["max_tokens"] = 1;
  j["stream"] = false;
  j.erase("stream_options");
  j["kv_transfer"] = {{"export", true}};
  return j.dump();
}

std::string decode_body(std::string_view body, const nlohmann::json& source) {
  nlohmann::json j = nlohmann::json::parse(body);
  j["kv_transfer"] = {{"source", source}};
  return j.dump();
}

net::awaitable<PrefillOutcome> run_prefill(std::string_view path, std::string_view body,
                                           const RoutedRequest& routed, RouterContext& ctx) {
  PrefillOutcome out;
  const std::string request = prefill_body(body);
  std::vector<int> tried;
  // Waits for a prefill worker with room as long as a decode worker would be waited for.
  const auto deadline =
      std::chrono::steady_clock::now() + seconds_to_duration(ctx.options.queue_timeout_s);
  while (out.attempts < ctx.options.max_attempts) {
    NoReplica why = NoReplica::kNoneHealthy;
    std::optional<ReplicaLease> lease = ctx.prefill->acquire(routed.prefix, tried, &why);
    if (!lease && why == NoReplica::kAllFull && std::chrono::steady_clock::now() < deadline) {
      co_await ctx.prefill_waiters.wait(deadline);
      continue;
    }
    if (!lease) {
      out.fallback += std::string(out.fallback.empty() ? "" : "; ") +
                      (why == NoReplica::kAllFull ? "every prefill worker is full"
                                                  : "no prefill worker is healthy");
      break;
    }
    ++out.attempts;
    const int64_t start = now_ns();
    const PrefillAttempt a = co_await prefill_at(lease->url, path, request, ctx);
    ctx.prefill->finish(lease->replica, a.replica_ok);
    ctx.prefill_waiters.wake_one();
    if (a.ok && a.kv_transfer.contains("source")) {
      out.source = a.kv_transfer["source"];
      out.begin_ns = start;
      out.end_ns = now_ns();
      out.prefill_s = double(out.end_ns - start) * 1e-9;
      out.kv_bytes = a.kv_transfer.value("bytes", int64_t(0));
      out.fallback.clear();
      co_return out;
    }
    out.fallback = a.ok ? "prefill worker " + std::to_string(lease->replica) +
                              " exported nothing: " + a.kv_transfer.value("error", std::string())
                        : "prefill worker " + std::to_string(lease->replica) + ": " + a.detail;
    if (a.ok || a.replica_ok) break;  // another worker would fare no better
    tried.push_back(lease->replica);
  }
  co_return out;
}

}  // namespace infergate
