#include "bench/metrics/saturation_check.h"

#include <cstdio>

#include "bench/metrics/summarize.h"

namespace infergate {

namespace {

std::string figure(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.4g", value);
  return text;
}

// The first bound the stage is past, or "".
std::string breach(const StageJudgement& j, const SaturationStopSpec& b) {
  const std::string bound = j.unfinished > 0 ? " (at least)" : "";
  if (b.error_share && j.error_share > *b.error_share) {
    return "error share " + figure(j.error_share) + " > " + figure(*b.error_share) + " (" +
           std::to_string(j.errors) + " of " + std::to_string(j.requests) + " requests failed)";
  }
  if (b.ttft_p95_ms && j.ttft_p95_ms > *b.ttft_p95_ms) {
    return "TTFT P95 " + figure(j.ttft_p95_ms) + " ms" + bound + " > " + figure(*b.ttft_p95_ms) +
           " ms";
  }
  if (b.e2e_p95_ms && j.e2e_p95_ms > *b.e2e_p95_ms) {
    return "E2E P95 " + figure(j.e2e_p95_ms) + " ms" + bound + " > " + figure(*b.e2e_p95_ms) +
           " ms";
  }
  return "";
}

}  // namespace

StageJudgement judge_stage(const std::vector<const RequestRecord*>& stage, int64_t now_ns,
                           const SaturationStopSpec& bounds) {
  StageJudgement j;
  std::vector<double> ttft, e2e;
  for (const RequestRecord* r : stage) {
    ++j.requests;
    const bool finished = r->finished_ns > 0;
    if (finished && r->status != RequestStatus::kOk) {
      ++j.errors;
      continue;
    }
    if (!finished) ++j.unfinished;
    const int64_t first = r->first_token_ns > 0 ? r->first_token_ns : now_ns;
    ttft.push_back(double(first - r->scheduled_ns) * 1e-6);
    e2e.push_back(double((finished ? r->finished_ns : now_ns) - r->scheduled_ns) * 1e-6);
  }
  j.ttft_p95_ms = summarize_values(std::move(ttft)).p95;
  j.e2e_p95_ms = summarize_values(std::move(e2e)).p95;
  j.error_share = j.requests > 0 ? double(j.errors) / double(j.requests) : 0;
  j.reason = breach(j, bounds);
  j.saturated = !j.reason.empty();
  return j;
}

}  // namespace infergate
