// infergate_http_echo: a benchmark fixture, not a model server. It answers OpenAI-style
// streaming requests (/v1/completions, /v1/chat/completions) at once with max_tokens
// placeholder tokens and no model behind them, so that a run against it measures the harness's
// HTTP client alone (docs/performance.md, "HTTP client"). It also lets tests drive the client
// through stream shapes infergate serve does not produce (several tokens per chunk, no
// token_ids, as vLLM streams by default). It never stands in for infergate serve in a test of
// the server.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace infergate {

struct EchoServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 0;  // 0: any free port
  int num_threads = 1;
  std::string model = "echo";
  int32_t vocab_size = 32000;  // reported by GET /v1/models (0: not reported)
  int tokens_per_chunk = 1;    // tokens each streamed chunk carries
  bool token_ids = true;       // choices carry token_ids (false: text only)
  int64_t token_delay_us = 0;  // 0: the whole stream in one write; else a chunk per delay
  // Keep-alive policies of real servers, for the client's tests (none says so in a header):
  int close_after_requests = 0;  // > 0: close a connection after this many answers
  int64_t idle_close_ms = 0;     // > 0: close a connection idle this long between requests
  bool http10 = false;  // answer as HTTP/1.0: no chunked encoding, closed after each answer
  // As a reasoning model: each answer's first `reasoning_tokens` tokens are thinking, streamed
  // as delta.reasoning_content (chat, "field") or inside <think>...</think> in the text
  // ("think", and completions always); usage says how many in completion_tokens_details.
  int reasoning_tokens = 0;
  std::string reasoning_as = "field";  // field | think
  // As an auth gateway: every request must carry this header with this value, else 401.
  std::string required_header, required_value;
};

class EchoServer {
 public:
  // Binds at once (std::runtime_error if it cannot).
  explicit EchoServer(EchoServerOptions options);
  ~EchoServer();
  uint16_t port() const;
  // Serves until stop() or SIGINT/SIGTERM.
  void run();
  void stop();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace infergate
