// One row of a repetition's `requests` (docs/results-schema.md, "Per-request records"): what the
// harness saw of a request, times in ms since the repetition's start (absent: it never
// happened). The gates resample these to bound a percentile; diagnose fits TTFT and TPOT to them.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

// A disaggregated request's prefill and KV handoff, in the results' units.
struct KvTransferRow {
  double prefill_ms = 0;
  int64_t prefill_attempts = 0;
  std::string prefill_fallback;  // "" when a prefill worker exported the KV
  int64_t cached_blocks = 0, blocks_read = 0, bytes = 0;
  double read_ms = 0, before_admit_ms = 0;
  std::string read_fallback;  // "" when the read succeeded
};

struct RecordedRequest {
  int64_t index = 0;
  bool warmup = false;
  std::string status = "ok";  // ok, error, aborted
  std::string error;          // message of an error or an abort
  std::optional<double> scheduled_ms, sent_ms, first_token_ms, finished_ms;
  std::vector<double> token_times_ms;  // every output token
  int64_t input_tokens = 0, output_tokens = 0, cached_tokens = 0, preemptions = 0;
  std::optional<KvTransferRow> kv_transfer;
  // Structured output: "" valid, else the problem the harness found; absent: not asked for.
  std::optional<std::string> output_problem;
  // A reasoning model's: the leading tokens of token_times_ms that were thinking; absent when
  // the stream carried no reasoning.
  std::optional<int64_t> reasoning_tokens;
  int64_t session = -1, turn = 0;  // load.mode "sessions": the dataset's index, 1-based turn

  bool measured_ok() const { return !warmup && status == "ok"; }
};

nlohmann::json requests_to_json(const std::vector<RecordedRequest>& requests);
// Rows already checked by check_request_records (request_samples.h); fields a hand-written file
// leaves out keep their defaults.
std::vector<RecordedRequest> requests_from_json(const nlohmann::json& requests);

}  // namespace infergate
