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

// A request's n choices: one engine request each ("<id>" alone, "<id>-<i>" for several), all
// feeding one channel, and each choice's progress.
class Choices {
 public:
  Choices(const CompletionRequest& cr, const RequestId& id, ServerContext& ctx,
          int64_t arrival_ns) {
    for (int i = 0; i < cr.n; ++i) {
      ids_.push_back(cr.n == 1 ? id : id + "-" + std::to_string(i));
      progress_.push_back(std::make_unique<GenerationProgress>(cr, id, ctx, arrival_ns, i));
    }
  }
  int size() const { return int(ids_.size()); }
  const RequestId& id(int i) const { return ids_[size_t(i)]; }
  GenerationProgress& progress(int i) { return *progress_[size_t(i)]; }
  // The choice an engine output belongs to.
  int index_of(const RequestId& engine_id) const {
    for (size_t i = 0; i < ids_.size(); ++i) {
      if (ids_[i] == engine_id) return int(i);
    }
    return 0;
  }
  bool all_done() const {
    for (const auto& p : progress_) {
      if (!p->done()) return false;
    }
    return true;
  }
  // Stops the choices still running (a refusal or a failure ends the whole request).
  void abort_running(ServerContext& ctx) {
    for (size_t i = 0; i < ids_.size(); ++i) {
      if (!progress_[i]->done() && (i == 0 || rest_submitted)) ctx.service.abort(ids_[i]);
    }
  }
  void abandon(ServerContext& ctx) {
    abort_running(ctx);
    for (const auto& p : progress_) p->abandon();
  }
  int completion_tokens() const {
    int total = 0;
    for (const auto& p : progress_) total += p->completion_tokens();
    return total;
  }

  bool rest_submitted = false;  // choices after the first (submit_rest)

 private:
  std::vector<RequestId> ids_;
  std::vector<std::unique_ptr<GenerationProgress>> progress_;
};

// Hands choice `i` to the engine, its events to `channel`.
void submit_choice(const CompletionRequest& cr, const Choices& choices, int i, ServerContext& ctx,
                   const std::shared_ptr<EventChannel>& channel, Handoff& handoff) {
  std::vector<int32_t> prompt = submitted_prompt(cr);
  SamplingParams sampling = cr.sampling;
  sampling.max_tokens -= int(cr.resumed.size());
  sampling.grammar_resumed_tokens = int(cr.resumed.size());
  if (sampling.seed) *sampling.seed += uint64_t(i);  // vLLM's seeds for n choices
  EventSink sink = [channel](ServiceEvent e) { channel->push(std::move(e)); };
  if (!cr.kv_source.is_null()) {  // n is 1 (request_fields.cc)
    handoff.read = std::make_shared<KvReadRecord>();
    submit_after_kv_read(ctx, cr, choices.id(i), std::move(prompt), sampling, std::move(sink),
                         handoff.read, handoff.arrival_ns);
  } else {
    ctx.service.submit(choices.id(i), std::move(prompt), sampling, std::move(sink),
                       KvHandoff{cr.kv_export, nullptr});
  }
}

// The first choice goes to the engine now; the others when its first output shows the prompt
// computed (submit_rest), so they find the prompt's full blocks in the prefix cache instead of
// computing them again beside it.
std::shared_ptr<EventChannel> submit(const CompletionRequest& cr, const Choices& choices,
                                     ServerContext& ctx, net::any_io_executor executor,
                                     Handoff& handoff) {
  auto channel = std::make_shared<EventChannel>(std::move(executor));
  submit_choice(cr, choices, 0, ctx, channel, handoff);
  return channel;
}

void submit_rest(const CompletionRequest& cr, Choices& choices, ServerContext& ctx,
                 const std::shared_ptr<EventChannel>& channel, Handoff& handoff) {
  if (choices.rest_submitted) return;
  choices.rest_submitted = true;
  for (int i = 1; i < choices.size(); ++i) submit_choice(cr, choices, i, ctx, channel, handoff);
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

// One choice of a whole answer, as its outputs arrive.
struct CollectedChoice {
  std::vector<int32_t> ids;
  std::vector<TokenLogprobs> logprobs;
  std::string text;
  std::vector<ToolCall> tool_calls;
  FinishReason reason = FinishReason::kNone;

  void add(const GenerationProgress::Step& step) {
    ids.insert(ids.end(), step.ids.begin(), step.ids.end());
    logprobs.insert(logprobs.end(), step.logprobs.begin(), step.logprobs.end());
    text += step.text;
    tool_calls.insert(tool_calls.end(), step.tool_calls.begin(), step.tool_calls.end());
    if (step.done) reason = step.reason;
  }
};

nlohmann::json whole_answer(Choices& choices, std::vector<CollectedChoice>& collected) {
  nlohmann::json rendered = nlohmann::json::array();
  for (int i = 0; i < choices.size(); ++i) {
    GenerationProgress& p = choices.progress(i);
    const CollectedChoice& c = collected[size_t(i)];
    rendered.push_back(p.renderer().choice(c.text, c.ids, c.reason,
                                           p.logprobs_json(c.ids, c.logprobs), c.tool_calls));
  }
  GenerationProgress& first = choices.progress(0);
  return first.renderer().completion(std::move(rendered), first.prompt_tokens(),
                                     choices.completion_tokens());
}

// Non-streaming: collects the whole answer, then responds once.
net::awaitable<HttpResponse> complete(const HttpRequest& req, const CompletionRequest& cr,
                                      Choices& choices, ServerContext& ctx, Handoff& handoff) {
  auto channel = submit(cr, choices, ctx, co_await net::this_coro::executor, handoff);
  std::vector<CollectedChoice> collected(size_t(choices.size()));
  for (;;) {
    for (ServiceEvent& e : co_await channel->next()) {
      if (e.refusal != Refusal::kNone) {
        choices.abort_running(ctx);  // refused, not finished: the caller counts it
        co_return error_response(req, refusal(e));
      }
      handoff.note(e, ctx);
      const int i = choices.index_of(e.output.id);
      submit_rest(cr, choices, ctx, channel, handoff);
      const GenerationProgress::Step step = choices.progress(i).advance(e.output);
      collected[size_t(i)].add(step);
      if (step.stopped_by_string) ctx.service.abort(choices.id(i));
      if (step.done && e.output.step_failed) {  // the engine's fault: another server may answer
        choices.abandon(ctx);
        co_return error_response(req, ApiError(500, e.output.error));
      }
      if (!choices.all_done()) continue;
      nlohmann::json body = whole_answer(choices, collected);
      if (cr.kv_export) {
        body["kv_transfer"] = expose_prompt_kv(ctx, handoff.exported, submitted_prompt(cr));
      }
      if (handoff.read) body["kv_transfer"] = kv_read_record_json(*handoff.read);
      co_return json_response(req, http::status::ok, body);
    }
  }
}

// Streaming: SSE chunks over chunked transfer encoding, each choice's in the order its tokens
// come. A failed write means the client has gone: the request is aborted so its KV blocks
// return at once. Returns false then.
net::awaitable<bool> stream_answer(beast::tcp_stream& stream, const HttpRequest& req,
                                   const CompletionRequest& cr, Choices& choices,
                                   ServerContext& ctx, Handoff& handoff) {
  auto channel = submit(cr, choices, ctx, co_await net::this_coro::executor, handoff);
  beast::error_code ec;
  const auto write = [&](const std::string& data) -> net::awaitable<void> {
    if (ec) co_return;
    arm_write_timeout(stream, ctx.options.idle_timeout_s);
    co_await net::async_write(stream, http::make_chunk(net::buffer(data)),
                              net::redirect_error(net::use_awaitable, ec));
  };

  std::vector<ServiceEvent> events = co_await channel->next();
  if (events.front().refusal != Refusal::kNone) {
    choices.abort_running(ctx);
    ctx.metrics.request_refused(refusal_status(events.front()));
    co_await send(stream, error_response(req, refusal(events.front())), ec,
                  ctx.options.idle_timeout_s);
    co_return !ec;
  }
  co_await send_event_stream_header(stream, req, ec, ctx.options.idle_timeout_s);
  for (;;) {
    for (ServiceEvent& e : events) {
      handoff.note(e, ctx);
      if (e.refusal != Refusal::kNone) {  // a later choice refused: the request ends
        choices.abort_running(ctx);
        co_await write(sse_event(refusal(e).to_json()) + kSseDone);
        co_return co_await end_chunks(stream, ctx, ec);
      }
      const int i = choices.index_of(e.output.id);
      submit_rest(cr, choices, ctx, channel, handoff);
      GenerationProgress& progress = choices.progress(i);
      const GenerationProgress::Step step = progress.advance(e.output);  // counts its finish
      if (step.done && e.output.step_failed) {
        // The engine's fault, not the request's: an error event (vLLM's shape), so a client
        // sees a failed stream and the router resumes it at another replica.
        choices.abandon(ctx);
        co_await write(sse_event(ApiError(500, e.output.error).to_json()) + kSseDone);
        co_return co_await end_chunks(stream, ctx, ec);
      }
      if (step.stopped_by_string) ctx.service.abort(choices.id(i));
      if (step.ids.empty() && !step.done) continue;
      nlohmann::json chunk = progress.renderer().chunk(
          step.text, step.ids, step.reason, progress.logprobs_json(step.ids, step.logprobs),
          step.tool_calls);
      if (!choices.all_done()) {
        co_await write(sse_event(chunk));
        continue;
      }
      // The last chunk, the usage and [DONE] go out in one write: a server killed in between
      // cannot leave a client (or the router resuming the stream elsewhere) with a finished
      // answer whose usage never comes.
      if (handoff.read) chunk["kv_transfer"] = kv_read_record_json(*handoff.read);
      std::string end = sse_event(chunk);
      if (cr.include_usage) {
        end += sse_event(
            progress.renderer().usage_chunk(progress.prompt_tokens(), choices.completion_tokens()));
      }
      end += kSseDone;
      co_await write(end);
      co_return co_await end_chunks(stream, ctx, ec);
    }
    if (ec) {
      choices.abandon(ctx);
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
  Choices choices(cr, id, ctx, arrival_ns);
  Handoff handoff{nullptr, nullptr, arrival_ns};
  if (cr.stream) co_return co_await stream_answer(stream, req, cr, choices, ctx, handoff);
  HttpResponse res = co_await complete(req, cr, choices, ctx, handoff);
  if (res.result_int() >= 400) ctx.metrics.request_refused(res.result_int());
  co_await send(stream, std::move(res), ec, ctx.options.idle_timeout_s);
  co_return !ec && req.keep_alive();
}

}  // namespace infergate
