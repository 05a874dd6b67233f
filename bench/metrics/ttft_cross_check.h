// The client's TTFT against the server's own (AIPerf's client/server cross-check,
// docs/metrics.md "Client versus server TTFT"): both means over the same requests, the
// signed difference, and a disagreement flagged when it exceeds what the transport explains.
#pragma once

#include <cstdint>
#include <string>

#include "common/results/server_side_record.h"  // TtftCrossCheck

namespace infergate {

inline constexpr double kCrossCheckRttFactor = 3;
inline constexpr double kCrossCheckSlackMs = 1;

// |client - server| > 3 x rtt_p95_ms + 1 ms is a disagreement, and so are different request
// counts (the two means are then not over the same requests).
TtftCrossCheck cross_check_ttft(double client_mean_ms, int64_t client_count, double server_mean_ms,
                                int64_t server_count, double rtt_p95_ms);

}  // namespace infergate
