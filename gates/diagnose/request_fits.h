// Figures diagnose computes from per-request records (results: repetitions[].requests): how TTFT
// follows prompt length, and how each request's TPOT follows the prefill work that ran while it
// was decoding (docs/diagnose.md, "Measurements").
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "common/results/recorded_request.h"

namespace infergate {

// A least-squares line y = intercept + slope x with Pearson's r, over `n` points.
struct LineFit {
  double slope = 0, intercept = 0, r = 0;
  size_t n = 0;
};

// Nullopt with fewer than 3 points or no spread in x or y.
std::optional<LineFit> fit_line(const std::vector<double>& x, const std::vector<double>& y);

// TTFT (first token - scheduled, ms) against input tokens, over the measured requests that
// completed, pooled over `repetitions` (each a repetition's records).
std::optional<LineFit> ttft_by_prompt_tokens(
    const std::vector<const std::vector<RecordedRequest>*>& repetitions);

// Each measured completed request's TPOT against the prompt tokens other requests prefilled
// while it decoded, per token it decoded: a request j's input tokens are spread evenly over its
// prefill window (sent .. first token) and counted by the overlap with i's decode window (first
// token .. finished). Warm-up requests interfere but are not fitted. At most
// kMaxInterferenceRecords records of a repetition are used (the work is quadratic).
std::optional<LineFit> tpot_by_concurrent_prefill(
    const std::vector<const std::vector<RecordedRequest>*>& repetitions);

inline constexpr size_t kMaxInterferenceRecords = 4000;

}  // namespace infergate
