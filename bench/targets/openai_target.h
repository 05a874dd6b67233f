// Any OpenAI-compatible server (infergate serve, vLLM, SGLang, ...) as a benchmark target, over
// HTTP. One event-loop thread runs every request as a coroutine on its own connection (idle
// keep-alive connections are reused), so thousands of streams can be in flight at once. Each
// request is a streamed completion (bench/http/openai_request_body.h); every SSE chunk is
// stamped when it is parsed off the socket, its tokens counted by docs/metrics.md's rules
// ("HTTP targets"), and whatever goes wrong (an HTTP error status, no connection, a timeout, a
// stream cut short) ends the request as an error record with the reason, never a lost one.
#pragma once

#include <memory>

#include "bench/http/openai_endpoint.h"
#include "bench/targets/target.h"

namespace infergate {

class OpenAiTarget final : public Target {
 public:
  // Resolves the server's host name now (std::runtime_error if it cannot) and raises the
  // open-file limit (common/http/open_file_limit.h).
  explicit OpenAiTarget(OpenAiEndpoint endpoint);
  ~OpenAiTarget() override;

  void start(TargetEventSink sink) override;
  // Builds the request on the caller's thread; the event loop sends it. The event's sent_ns is
  // when the loop began sending it, so a saturated client shows up as send lag.
  void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) override;
  // Closes every in-flight connection (each request ends kAborted), then stops the loop.
  void stop() override;
  // The HTTP client's counters (http_client).
  TargetStats stats() const override;
  int32_t vocab_size() const override;

 private:
  class Loop;
  std::unique_ptr<Loop> loop_;
};

}  // namespace infergate
