// How long a load's schedule runs, checked before anything is sent: an open loop of
// num_requests at a rate so low that its arrivals would be spread over more than
// load.duration_s's limit (a day) is refused naming the rate, rather than left to wait for days.
// A run of sessions whose warm-up takes every turn is refused too: it would measure nothing.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/dataset/session_dataset.h"
#include "bench/workload/workload.h"

namespace infergate {

// The expected seconds from an open loop's first arrival to its last (num_requests +
// warmup_requests arrivals at load.rate); 0 for a loop bounded by duration_s or a ramp, whose
// length is checked as the workload is read, and for the other modes.
double open_loop_expected_s(const LoadSpec& load);

// Throws WorkloadError naming $.load.rate (or the sweep point) when an open loop of every sweep
// point's rate would last longer than kMaxDurationS.
void check_open_loop_length(const Workload& w);

// Throws WorkloadError naming $.load.warmup_requests when it is not below the sessions' turns.
void check_session_warmup(const Workload& w, const std::vector<BenchSession>& sessions);

}  // namespace infergate
