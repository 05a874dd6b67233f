// What the harness drives: the in-process engine, a zero-cost echo, and any OpenAI-compatible
// endpoint over HTTP. A target takes requests without blocking and reports tokens
// and completions as events, from whatever thread it runs on.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bench/metrics/request_record.h"
#include "common/results/target_stats.h"

namespace infergate {

struct TargetEvent {
  uint64_t index = 0;
  std::vector<int64_t> token_times_ns;  // tokens that arrived (may be empty)
  // Their ids, when the target knows them (the engine, the echo, an HTTP server whose stream
  // carries token_ids); empty otherwise. Multi-turn sessions build the next turn from them.
  std::vector<int32_t> token_ids;
  bool finished = false;
  int64_t finished_ns = 0;
  RequestStatus status = RequestStatus::kOk;
  std::string error;
  int cached_tokens = 0;
  int preemptions = 0;
  // Set by targets that know better than the driver (0: keep the driver's): when the request
  // really left for the target (an HTTP client's event loop may queue it first), and the
  // prompt's token count as the target counted it (an HTTP server's usage.prompt_tokens).
  int64_t sent_ns = 0;
  int input_tokens = 0;
  std::optional<KvTransferRecord> kv_transfer;  // a disaggregated request's handoff (last event)
  // A structured-output request's answer judged (last event): "" valid, else the problem;
  // absent when the request asked for no structure.
  std::optional<std::string> output_problem;
  // A reasoning model's (last event): how many of the request's leading tokens were thinking;
  // absent when its stream carried no reasoning (docs/metrics.md, "Reasoning models").
  std::optional<int> reasoning_tokens;
};

// The final event of a request that produced no (more) tokens: an error or an abort.
TargetEvent end_event(uint64_t index, RequestStatus status, std::string error = {});

using TargetEventSink = std::function<void(TargetEvent&&)>;

class Target {
 public:
  virtual ~Target() = default;
  // Begins serving; events go to `sink` until stop() returns.
  virtual void start(TargetEventSink sink) = 0;
  // Hands over request `index`: generate max_tokens tokens (ignoring EOS: benchmarks need
  // fixed output lengths) after `prompt`. Thread-safe and non-blocking: the target queues it.
  virtual void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) = 0;
  // Aborts whatever is in flight (each gets a kAborted finish event) and stops.
  virtual void stop() = 0;
  // A snapshot of the target's own statistics (engine: memory ledger, KV usage, ...; HTTP
  // client: requests by outcome, connections), any thread. Neither for a target without any.
  virtual TargetStats stats() const = 0;
  // Vocabulary size the dataset must draw token ids from.
  virtual int32_t vocab_size() const = 0;
};

}  // namespace infergate
