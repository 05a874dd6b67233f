// One request as another tool recorded it (vLLM --save-detailed arrays, AIPerf's JSONL records,
// GuideLLM's request list), and our distributions computed from such requests with our
// definitions (docs/metrics.md): latencies of ok requests only, TPOT = (E2E - TTFT) / (out - 1)
// for out >= 2, ITL pooled per token, numpy-linear percentiles. Times are the tool's, in ms.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/imports/imported_run.h"

namespace infergate {

struct ImportedRequest {
  bool ok = true;
  bool aborted = false;  // not ok and not failed: cut off when the run ended (GuideLLM)
  std::string error;     // the tool's error text of a failed request
  std::optional<double> ttft_ms, e2e_ms;
  // The tool's own (last token - first token) / (out - 1), when its E2E ends later than the
  // last token (GuideLLM's ends at the request's end); else TPOT is computed from E2E and TTFT.
  std::optional<double> tpot_ms;
  std::optional<double> send_lag_ms;           // actual send - scheduled send, when known
  std::optional<std::vector<double>> gaps_ms;  // gaps between streamed chunks, when recorded
  int64_t input_tokens = 0, output_tokens = 0;
};

// Fills run.distributions (ttft_ms, tpot_ms, e2e_ms, input_tokens, output_tokens; itl_ms when
// every ok request has its gaps; send_lag_ms when every sent request has its lag), the request
// counts and error classes of run.summary, and notes on how chunk gaps became per-token ITL.
void summarize_requests(const std::vector<ImportedRequest>& requests, ImportedRun& run);

}  // namespace infergate
