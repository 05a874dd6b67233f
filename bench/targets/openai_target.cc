#include "bench/targets/openai_target.h"

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unordered_set>

#include "bench/http/http_client_stats.h"
#include "bench/http/openai_request_body.h"
#include "bench/http/stream_tally.h"
#include "common/http/connection_pool.h"
#include "common/http/http_request_text.h"
#include "common/http/http_response_reader.h"
#include "common/http/open_file_limit.h"
#include "common/http/sse_parser.h"
#include "common/util/clock.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
using SteadyTime = std::chrono::steady_clock::time_point;

// What one attempt at a request saw, from connecting to the response's last byte.
struct Exchange {
  bool connect_failed = false;
  std::string connect_error;  // what failed: the TCP connect or the TLS handshake, and why
  beast::error_code ec;       // the first transport failure
  HttpResponseRead response;
  SseParser sse;
  StreamTally tally;
  std::vector<std::string> events;
  bool done = false;  // data: [DONE] arrived
  int64_t last_event_ns = 0;
  std::string stream_error;   // the first bad event
  bool keeps_answer = false;  // a structured-output request: its answer is put together
  StructuredAnswer answer;

  // A piece of a 200 response's body, parsed off the socket at t_ns.
  void on_body(std::string_view bytes, int64_t t_ns) {
    events.clear();
    try {
      sse.feed(bytes, events);
    } catch (const std::exception& e) {
      if (stream_error.empty()) stream_error = e.what();
    }
    for (const std::string& data : events) {
      const StreamChunk chunk = parse_stream_chunk(data);
      last_event_ns = t_ns;
      if (chunk.done) done = true;
      if (!chunk.error.empty() && stream_error.empty()) stream_error = chunk.error;
      tally.add(t_ns, chunk);
      if (keeps_answer) keep(chunk);
    }
  }

  // The answer's text and tool calls, as a client would put them together.
  void keep(const StreamChunk& chunk) {
    if (answer.content.size() < kMaxAnswerBytes) answer.content += chunk.text;
    for (const ToolCallDelta& d : chunk.tool_calls) {
      if (d.index < 0 || d.index >= kMaxToolCalls) continue;
      if (answer.tool_calls.size() <= size_t(d.index))
        answer.tool_calls.resize(size_t(d.index) + 1);
      AnswerToolCall& call = answer.tool_calls[size_t(d.index)];
      call.name += d.name;
      if (call.arguments.size() < kMaxAnswerBytes) call.arguments += d.arguments;
    }
    if (!chunk.finish_reason.empty()) answer.finish_reason = chunk.finish_reason;
  }

  static constexpr size_t kMaxAnswerBytes = 4 << 20;  // a longer answer is judged on its start
  static constexpr int kMaxToolCalls = 1024;
};

bool finished_normally(const std::string& reason) {
  return reason == "length" || reason == "stop" || reason == "tool_calls";
}

// Registers a connection as carrying a request (so stop() can close it) for its scope.
class ActiveConnection {
 public:
  ActiveConnection(std::unordered_set<HttpConnection*>& set, HttpConnection* c) : set_(set), c_(c) {
    set_.insert(c_);
  }
  ~ActiveConnection() { set_.erase(c_); }
  ActiveConnection(const ActiveConnection&) = delete;
  ActiveConnection& operator=(const ActiveConnection&) = delete;

 private:
  std::unordered_set<HttpConnection*>& set_;
  HttpConnection* c_;
};

std::string chunks_seen(const Exchange& x) {
  return std::to_string(x.tally.output_chunks()) + " output chunks received";
}

}  // namespace

class OpenAiTarget::Loop {
 public:
  explicit Loop(OpenAiEndpoint endpoint)
      : endpoint_(std::move(endpoint)),
        body_(endpoint_.api, endpoint_.model, endpoint_.vocab_size, endpoint_.sampling,
              endpoint_.tokenizer, endpoint_.structured, endpoint_.constrain),
        timeout_(std::chrono::microseconds(int64_t(endpoint_.timeout_s * 1e6))) {
    raise_open_file_limit();
    net::ip::tcp::resolver resolver(io_);
    beast::error_code ec;
    endpoints_ = resolver.resolve(endpoint_.url.host, std::to_string(endpoint_.url.port), ec);
    if (ec) {
      throw std::runtime_error("target.url: cannot resolve \"" + endpoint_.url.host +
                               "\": " + ec.message());
    }
  }

  ~Loop() { stop(); }

  void start(TargetEventSink sink) {
    sink_ = std::move(sink);
    io_.restart();
    work_.emplace(io_.get_executor());
    thread_ = std::thread([this] { io_.run(); });
  }

  // The body is built, and the prompt counted, here on the caller's thread rather than on the
  // event loop, where it would delay the timestamps of every stream in flight.
  void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) {
    std::string request = http_post_json(endpoint_.url, body_.path(), endpoint_.access,
                                         body_(prompt, max_tokens, index));
    const std::optional<int> prompt_tokens = body_.prompt_tokens(prompt);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ++outstanding_;
    }
    net::post(io_, [this, index, prompt_tokens, request = std::move(request)]() mutable {
      net::co_spawn(io_, run(index, std::move(request), prompt_tokens), net::detached);
    });
  }

  void stop() {
    if (!thread_.joinable()) return;
    net::post(io_, [this] { abort_all(); });
    {
      std::unique_lock<std::mutex> lock(mutex_);
      all_ended_.wait(lock, [&] { return outstanding_ == 0; });
    }
    work_.reset();
    thread_.join();
  }

  TargetStats stats() const {
    TargetStats s;
    s.http_client = stats_.snapshot();
    return s;
  }
  int32_t vocab_size() const { return endpoint_.vocab_size; }

 private:
  // `prompt_tokens`: the client's count of the prompt, checked against the server's usage.
  net::awaitable<void> run(uint64_t index, std::string request, std::optional<int> prompt_tokens) {
    const int64_t sent_ns = now_ns();
    stats_.request_started();
    TargetEvent e;
    try {
      e = co_await exchange(index, request, prompt_tokens);
    } catch (const std::exception& ex) {  // nothing in flight may vanish, whatever happens
      e = fail(index, HttpFailure::kConnectionLost, std::string("client error: ") + ex.what());
    }
    e.sent_ns = sent_ns;
    sink_(std::move(e));
    stats_.request_ended();
    std::lock_guard<std::mutex> lock(mutex_);
    if (--outstanding_ == 0) all_ended_.notify_all();
  }

  // One request on a pooled or new connection. A reused connection the server had closed fails
  // before any byte of the answer: the request is then tried once more on a new connection
  // (never another pooled one, which the server may well have closed too).
  net::awaitable<TargetEvent> exchange(uint64_t index, const std::string& request,
                                       std::optional<int> prompt_tokens) {
    const SteadyTime deadline = std::chrono::steady_clock::now() + timeout_;
    for (int attempt = 0;; ++attempt) {
      if (stopping_) co_return aborted(index);
      std::unique_ptr<HttpConnection> c = attempt == 0 ? take_idle() : nullptr;
      const bool reused = c != nullptr;
      if (!reused)
        c = std::make_unique<HttpConnection>(io_.get_executor(), endpoint_.access.tls.get());
      auto x = std::make_unique<Exchange>();
      x->tally = StreamTally(endpoint_.think);
      x->keeps_answer = judges();
      {
        const ActiveConnection active(active_, c.get());
        co_await send_and_read(*c, reused, request, deadline, *x);
      }
      const bool stale =
          reused && x->ec && x->ec != beast::error::timeout && !x->response.got_bytes && !stopping_;
      if (stale && attempt == 0) {
        stats_.stale_connection_retried();
        continue;
      }
      if (x->response.keep_alive && !stopping_) pool_.put_back(std::move(c));
      co_return outcome(index, *x, prompt_tokens);
    }
  }

  // A pooled connection the server has not closed, or nullptr.
  std::unique_ptr<HttpConnection> take_idle() {
    const int64_t dropped = pool_.dropped_closed();
    std::unique_ptr<HttpConnection> c = pool_.take();
    if (pool_.dropped_closed() > dropped)
      stats_.closed_idle_dropped(pool_.dropped_closed() - dropped);
    return c;
  }

  net::awaitable<void> send_and_read(HttpConnection& c, bool reused, const std::string& request,
                                     SteadyTime deadline, Exchange& x) {
    c.stream.expires_at(deadline);  // one deadline for connecting, sending and reading
    if (reused) {
      stats_.connection_reused();
    } else {
      co_await c.connect(endpoints_, endpoint_.url.host, x.ec);
      if (x.ec) {
        x.connect_failed = true;
        x.connect_error = c.describe(x.ec);
        co_return;
      }
      stats_.connection_opened();
      if (c.tls) stats_.tls_handshake(c.tls_handshake_ns);
    }
    co_await c.with_stream([&](auto& stream) {
      return net::async_write(stream, net::buffer(request),
                              net::redirect_error(net::use_awaitable, x.ec));
    });
    if (x.ec) co_return;
    x.response = co_await read_http_response(
        c, [&x](std::string_view piece, int64_t t_ns) { x.on_body(piece, t_ns); });
    x.ec = x.response.ec;
  }

  // Whether answers are judged: structured requests sent with their structure.
  bool judges() const { return endpoint_.structured && endpoint_.constrain; }

  // The request's final event: ok, or an error (or abort) with the reason.
  // The request's prompt tokens are the server's count (usage.prompt_tokens), else the client's.
  TargetEvent outcome(uint64_t index, Exchange& x, std::optional<int> prompt_tokens) {
    const TallyResult tally = x.tally.finish(x.last_event_ns > 0 ? x.last_event_ns : now_ns());
    TargetEvent e = classify(index, x, tally);
    e.token_times_ns = tally.token_times_ns;
    e.token_ids = tally.token_ids;
    e.input_tokens = tally.usage_tokens ? tally.prompt_tokens : prompt_tokens.value_or(0);
    e.kv_transfer = tally.kv_transfer;
    e.reasoning_tokens = tally.reasoning_tokens;
    if (e.status != RequestStatus::kOk) return e;
    e.finished_ns = x.last_event_ns;
    if (!tally.usage_tokens) stats_.usage_missing();
    if (tally.mismatch) {
      stats_.usage_mismatch(
          "request " + std::to_string(index) + ": " + std::to_string(tally.streamed_tokens) +
          (tally.counted_by_ids ? " token ids" : " text chunks") +
          " streamed, usage.completion_tokens " + std::to_string(*tally.usage_tokens));
    }
    if (tally.usage_tokens && prompt_tokens) check_prompt_count(index, *prompt_tokens, tally);
    if (judges()) e.output_problem = endpoint_.structured->problem(index, x.answer);
    return e;
  }

  void check_prompt_count(uint64_t index, int counted, const TallyResult& tally) {
    if (counted == tally.prompt_tokens) return stats_.prompt_count_checked(false, {});
    stats_.prompt_count_checked(
        true, "request " + std::to_string(index) + ": " + std::to_string(counted) +
                  " prompt tokens counted here (" + client_count_rule() +
                  "), usage.prompt_tokens " + std::to_string(tally.prompt_tokens));
  }

  std::string client_count_rule() const {
    if (endpoint_.api != "chat") return "the token ids sent";
    return endpoint_.tokenizer->description + ", chat template " +
           endpoint_.tokenizer->chat_description;
  }

  // Once data: [DONE] has arrived the completion is whole: a failure after it (the connection
  // closing before the HTTP message's last bytes) only keeps the connection from being reused.
  TargetEvent classify(uint64_t index, const Exchange& x, const TallyResult& tally) {
    const bool failed = x.ec && !x.done;
    if (stopping_ && failed) return aborted(index);
    if (failed && x.ec == beast::error::timeout) {
      return fail(index, HttpFailure::kTimeout,
                  "timeout: no complete response within target.timeout_s = " +
                      std::to_string(endpoint_.timeout_s) + " s (" + chunks_seen(x) + ")");
    }
    if (x.connect_failed) {
      return fail(index, HttpFailure::kConnect,
                  "cannot connect to " + endpoint_.url.text() + ": " + x.connect_error);
    }
    const HttpResponseRead& r = x.response;
    if (r.status != 0 && r.status != 200) {
      return fail(index, HttpFailure::kHttpStatus,
                  "HTTP " + std::to_string(r.status) + ": " + error_message_of(r.error_body),
                  r.status);
    }
    if (!x.stream_error.empty()) return fail(index, HttpFailure::kStreamError, x.stream_error);
    if (failed) {
      return fail(index, HttpFailure::kConnectionLost,
                  "connection lost mid-response: " + x.ec.message() + " (" + chunks_seen(x) + ")");
    }
    const std::string& reason = x.tally.finish_reason();
    if (!x.done && reason.empty()) {
      return fail(index, HttpFailure::kIncomplete,
                  "the response ended without a finish_reason or data: [DONE] (content-type \"" +
                      r.content_type + "\", " + chunks_seen(x) + ")");
    }
    if (!reason.empty() && !finished_normally(reason)) {
      return fail(index, HttpFailure::kStreamError,
                  "the server ended the completion with finish_reason \"" + reason + "\" after " +
                      std::to_string(tally.token_times_ns.size()) + " tokens");
    }
    stats_.ok();
    TargetEvent e;
    e.index = index;
    e.finished = true;
    return e;
  }

  TargetEvent fail(uint64_t index, HttpFailure kind, std::string reason, int status = 0) {
    stats_.failed(kind, status);
    return end_event(index, RequestStatus::kError, std::move(reason));
  }

  TargetEvent aborted(uint64_t index) {
    stats_.aborted();
    return end_event(index, RequestStatus::kAborted, "aborted: the run was stopped");
  }

  // Loop thread: every in-flight request ends kAborted as its connection closes; requests not
  // yet started see stopping_ and end so too.
  void abort_all() {
    stopping_ = true;
    for (HttpConnection* c : active_) c->stream.close();
    pool_.clear();
  }

  const OpenAiEndpoint endpoint_;
  const OpenAiRequestBody body_;
  const std::chrono::steady_clock::duration timeout_;
  net::io_context io_{1};
  std::optional<net::executor_work_guard<net::io_context::executor_type>> work_;
  std::thread thread_;
  net::ip::tcp::resolver::results_type endpoints_;
  TargetEventSink sink_;
  HttpClientStats stats_;
  // Loop thread only:
  ConnectionPool pool_;
  std::unordered_set<HttpConnection*> active_;  // connections carrying a request
  bool stopping_ = false;
  // Requests submitted whose final event has not gone out yet.
  std::mutex mutex_;
  std::condition_variable all_ended_;
  int64_t outstanding_ = 0;
};

OpenAiTarget::OpenAiTarget(OpenAiEndpoint endpoint)
    : loop_(std::make_unique<Loop>(std::move(endpoint))) {}

OpenAiTarget::~OpenAiTarget() = default;

void OpenAiTarget::start(TargetEventSink sink) { loop_->start(std::move(sink)); }

void OpenAiTarget::submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) {
  loop_->submit(index, prompt, max_tokens);
}

void OpenAiTarget::stop() { loop_->stop(); }

TargetStats OpenAiTarget::stats() const { return loop_->stats(); }

int32_t OpenAiTarget::vocab_size() const { return loop_->vocab_size(); }

}  // namespace infergate
