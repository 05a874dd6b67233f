// What the harness observed of one request. Every time is nanoseconds on the one monotonic
// clock (common/util/clock.h); 0 means "never happened". Latencies are anchored at the
// request's *scheduled* time, so queueing in front of the target counts (no coordinated
// omission). Definitions: docs/metrics.md.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/metrics/kv_transfer_record.h"

namespace infergate {

enum class RequestStatus { kOk, kError, kAborted };

const char* request_status_name(RequestStatus status);

struct RequestRecord {
  uint64_t index = 0;        // position in the run's request sequence
  bool warmup = false;       // excluded from statistics
  int64_t scheduled_ns = 0;  // when the load model said to send it
  int64_t sent_ns = 0;       // when the harness actually handed it to the target
  int64_t first_token_ns = 0;
  int64_t finished_ns = 0;
  std::vector<int64_t> token_times_ns;  // arrival of every output token, in order
  int input_tokens = 0;
  int output_tokens = 0;
  int cached_tokens = 0;  // prompt tokens served from the prefix cache
  int preemptions = 0;
  RequestStatus status = RequestStatus::kOk;
  std::string error;                            // for kError
  std::optional<KvTransferRecord> kv_transfer;  // a disaggregated request's handoff
  // Structured output (docs/metrics.md, "Structured output"): "" when the answer gave what the
  // request asked for, else the problem; absent for a request that asked for no structure.
  std::optional<std::string> output_problem;
  // A reasoning model's: the leading tokens of token_times_ns that were thinking; absent when
  // the stream carried no reasoning (then the first output token is the first token).
  std::optional<int> reasoning_tokens;
  int session = -1, turn = -1;  // load.mode "sessions": which turn of which
};

}  // namespace infergate
