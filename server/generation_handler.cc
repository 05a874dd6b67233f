#include "server/generation_handler.h"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>

#include "server/event_channel.h"
#include "server/generation_progress.h"
#include "server/kv_handoff.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

// Holds one of the server's pending-request slots for as long as a request is answered.
class PendingSlot {
 public:
  explicit PendingSlot(ServerContext& ctx)
      : ctx_(ctx), taken_(ctx.pending_requests.fetch_add(1) < ctx.options.max_pending_requests) {
    if (!taken_) --ctx_.pending_requests;
  }
  ~PendingSlot() {
    if (taken_) --ctx_.pending_requests;
  }
  bool taken() const { return taken_; }

 private:
  ServerContext& ctx_;
  bool taken_;
};

// A request's part in the prefill/decode handoff (server/kv_handoff.h), when it has one.
struct Handoff {
  std::shared_ptr<KvReadRecord> read;  // decode side: filled before the first event
  std::shared_ptr<KvBlocks> exported;  // prefill side: from the last event
  int64_t arrival_ns = 0;

  void note(ServiceEvent& e, ServerContext& ctx) {
    if (e.exported_kv) exported = std::move(e.exported_kv);
    if (read && e.kv_blocks_imported > 0) {
      read->imported_blocks += e.kv_blocks_imported;
      ctx.metrics.kv_blocks_imported(e.kv_blocks_imported);
    }
  }
};

// What the engine is given: a resumed request prefills what it had generated and goes on from
// there.
std::vector<int32_t> submitted_prompt(const CompletionRequest& cr) {
  std::vector<int32_t> prompt = cr.prompt;
  prompt.insert(prompt.end(), cr.resumed.begin(), cr.resumed.end());
  return prompt;
}

std::shared_ptr<EventChannel> submit(const CompletionRequest& cr, const RequestId& id,
                                     ServerContext& ctx, net::any_io_executor executor,
                                     Handoff& handoff) {
  auto channel = std::make_shared<EventChannel>(std::move(executor));
  std::vector<int32_t> prompt = submitted_prompt(cr);
  SamplingParams sampling = cr.sampling;
  sampling.max_tokens -= int(cr.resumed.size());
  EventSink sink = [channel](ServiceEvent e) { channel->push(std::move(e)); };
  if (!cr.kv_source.is_null()) {
    handoff.read = std::make_shared<KvReadRecord>();
    submit_after_kv_read(ctx, cr, id, std::move(prompt), sampling, std::move(sink), handoff.read,
                         handoff.arrival_ns);
  } else {
    ctx.service.submit(id, std::move(prompt), sampling, std::move(sink),
                       KvHandoff{cr.kv_export, nullptr});
  }
  return channel;
}

// A refused request as HTTP: the engine's "no" is the client's fault (400); shutting down is
// the server's (503, retry elsewhere).
int refusal_status(const ServiceEvent& e) {
  return e.refusal == Refusal::kShuttingDown ? 503 : 400;
}
ApiError refusal(const ServiceEvent& e) { return ApiError(refusal_status(e), e.error); }

// The chunked body's last chunk, unless a write already failed; whether all went out.
net::awaitable<bool> end_chunks(beast::tcp_stream& stream, ServerContext& ctx,
                                beast::error_code& ec) {
  if (!ec) {
    arm_write_timeout(stream, ctx.options.idle_timeout_s);
    co_await net::async_write(stream, http::make_chunk_last(),
                              net::redirect_error(net::use_awaitable, ec));
  }
  co_return !ec;
}

// Non-streaming: collects the whole answer, then responds once.
net::awaitable<HttpResponse> complete(const HttpRequest& req, const CompletionRequest& cr,
                                      const RequestId& id, ServerContext& ctx,
                                      GenerationProgress& progress, Handoff& handoff) {
  auto channel = submit(cr, id, ctx, co_await net::this_coro::executor, handoff);
  std::vector<int32_t> ids;
  std::string text;
  for (;;) {
    for (ServiceEvent& e : co_await channel->next()) {
      if (e.refusal != Refusal::kNone) co_return error_response(req, refusal(e));
      handoff.note(e, ctx);
      const GenerationProgress::Step step = progress.advance(e.output);
      ids.insert(ids.end(), step.ids.begin(), step.ids.end());
      text += step.text;
      if (step.stopped_by_string) ctx.service.abort(id);
      if (step.done && e.output.step_failed) {  // the engine's fault: another server may answer
        co_return error_response(req, ApiError(500, e.output.error));
      }
      if (step.done) {
        nlohmann::json body =
            progress.renderer().completion(text, ids, step.reason, progress.prompt_tokens());
        if (cr.kv_export) {
          body["kv_transfer"] = expose_prompt_kv(ctx, handoff.exported, submitted_prompt(cr));
        }
        if (handoff.read) body["kv_transfer"] = kv_read_record_json(*handoff.read);
        co_return json_response(req, http::status::ok, body);
      }
    }
  }
}

// Streaming: SSE chunks over chunked transfer encoding. A failed write means the client has
// gone: the request is aborted so its KV blocks return at once. Returns false then.
net::awaitable<bool> stream_answer(beast::tcp_stream& stream, const HttpRequest& req,
                                   const CompletionRequest& cr, const RequestId& id,
                                   ServerContext& ctx, GenerationProgress& progress,
                                   Handoff& handoff) {
  auto channel = submit(cr, id, ctx, co_await net::this_coro::executor, handoff);
  beast::error_code ec;
  const auto write = [&](const std::string& data) -> net::awaitable<void> {
    if (ec) co_return;
    arm_write_timeout(stream, ctx.options.idle_timeout_s);
    co_await net::async_write(stream, http::make_chunk(net::buffer(data)),
                              net::redirect_error(net::use_awaitable, ec));
  };

  std::vector<ServiceEvent> events = co_await channel->next();
  if (events.front().refusal != Refusal::kNone) {
    ctx.metrics.request_refused(refusal_status(events.front()));
    co_await send(stream, error_response(req, refusal(events.front())), ec,
                  ctx.options.idle_timeout_s);
    co_return !ec;
  }
  co_await send_event_stream_header(stream, req, ec, ctx.options.idle_timeout_s);
  CompletionRenderer& render = progress.renderer();
  for (;;) {
    for (ServiceEvent& e : events) {
      handoff.note(e, ctx);
      const GenerationProgress::Step step = progress.advance(e.output);
      if (step.stopped_by_string) ctx.service.abort(id);
      if (!step.done) {
        if (!step.ids.empty())
          co_await write(sse_event(render.chunk(step.text, step.ids, step.reason)));
        continue;
      }
      if (e.output.step_failed) {
        // The engine's fault, not the request's: an error event (vLLM's shape), so a client
        // sees a failed stream and the router resumes it at another replica.
        co_await write(sse_event(ApiError(500, e.output.error).to_json()) + kSseDone);
        co_return co_await end_chunks(stream, ctx, ec);
      }
      // The last chunk, the usage and [DONE] go out in one write: a server killed in between
      // cannot leave a client (or the router resuming the stream elsewhere) with a finished
      // answer whose usage never comes.
      nlohmann::json last = render.chunk(step.text, step.ids, step.reason);
      if (handoff.read) last["kv_transfer"] = kv_read_record_json(*handoff.read);
      std::string end = sse_event(last);
      if (cr.include_usage) {
        end +=
            sse_event(render.usage_chunk(progress.prompt_tokens(), progress.completion_tokens()));
      }
      end += kSseDone;
      co_await write(end);
      co_return co_await end_chunks(stream, ctx, ec);
    }
    if (ec) {
      progress.abandon();
      ctx.service.abort(id);
      co_return false;
    }
    events = co_await channel->next();
  }
}

}  // namespace

net::awaitable<bool> serve_generation(beast::tcp_stream& stream, const HttpRequest& req,
                                      const CompletionRequest& cr, ServerContext& ctx,
                                      int64_t arrival_ns) {
  beast::error_code ec;
  const PendingSlot slot(ctx);
  if (!slot.taken()) {
    ctx.metrics.request_refused(429);
    co_await send(
        stream,
        error_response(req, ApiError(429, "the server is overloaded: " +
                                              std::to_string(ctx.options.max_pending_requests) +
                                              " requests are pending; retry later")),
        ec, ctx.options.idle_timeout_s);
    co_return !ec && req.keep_alive();
  }
  const RequestId id =
      (cr.api == ApiKind::kChat ? "chatcmpl-" : "cmpl-") + std::to_string(ctx.next_request++);
  ctx.metrics.request_admitted(int(cr.prompt.size()));
  GenerationProgress progress(cr, id, ctx, arrival_ns);
  Handoff handoff{nullptr, nullptr, arrival_ns};
  if (cr.stream) co_return co_await stream_answer(stream, req, cr, id, ctx, progress, handoff);
  HttpResponse res = co_await complete(req, cr, id, ctx, progress, handoff);
  if (res.result_int() >= 400) ctx.metrics.request_refused(res.result_int());
  co_await send(stream, std::move(res), ec, ctx.options.idle_timeout_s);
  co_return !ec && req.keep_alive();
}

}  // namespace infergate
