// A built dataset checked against what one request may hold (bench/workload/request_limits.h):
// JSONL requests and session turns, whose lengths are known only once the dataset is built.
#pragma once

#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/dataset/session_dataset.h"
#include "bench/workload/request_limits.h"

namespace infergate {

// Throws WorkloadError when a session's last turn (every message and answer of it) does not fit
// `limit`.
void check_session_lengths(const std::vector<BenchSession>& sessions, const Workload& w,
                           const RequestLimit& limit);

// Throws WorkloadError naming the first request of a built dataset that does not fit `limit`
// (JSONL datasets, whose lengths are known only once the file is read).
void check_dataset_requests(const std::vector<BenchRequest>& requests, const Workload& w,
                            const RequestLimit& limit);

}  // namespace infergate
