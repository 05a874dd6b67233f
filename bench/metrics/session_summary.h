// Multi-turn sessions' figures per turn (docs/metrics.md, "Sessions"): for turn k (1-based) of
// every session, the measured requests, their TTFT and the share of their prompt tokens the
// prefix cache served, which multi-turn reuse should raise turn after turn.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "bench/metrics/driver_result.h"

namespace infergate {

// {"completed", "cut", "cut_reason"?, "turns": [{"turn", "requests", "ttft_ms": {"p50",
// "p95", "mean"}, "input_tokens_mean", "prefix_cache_hit_rate"}]}; warm-up requests left out.
nlohmann::json session_summary(const DriverResult& run);

}  // namespace infergate
