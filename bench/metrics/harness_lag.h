// Did the harness keep its own schedule? A generator that cannot keep up sends each request
// later than the one before: its send lag (actual - scheduled send) grows through the run.
// Isolated late sends (the OS preempting the generator) do not grow and do not count; they
// are visible in summary.send_lag_ms.
#pragma once

#include <vector>

#include "bench/metrics/request_record.h"

namespace infergate {

// True when the median send lag of the last tenth of measured requests exceeds that of the
// first tenth by more than 1 ms (docs/metrics.md, "harness-limited").
bool send_lag_grew(const std::vector<RequestRecord>& records);

}  // namespace infergate
