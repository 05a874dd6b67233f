// Multi-turn sessions' figures per turn (docs/metrics.md, "Sessions"): for turn k (1-based) of
// every session, the measured requests, their TTFT and the share of their prompt tokens the
// prefix cache served, which multi-turn reuse should raise turn after turn.
#pragma once

#include "bench/metrics/driver_result.h"
#include "common/results/sessions_record.h"

namespace infergate {

// The repetition's "sessions" section (common/results/sessions_record.h), over the measured
// requests (warm-up left out), TTFT from each turn's scheduled send.
SessionsRecord session_summary(const DriverResult& run);

}  // namespace infergate
