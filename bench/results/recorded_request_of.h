// A harness request record as the results file's "requests" row (common/results/
// recorded_request.h): times in ms from the repetition's start.
#pragma once

#include <cstdint>

#include "bench/metrics/request_record.h"
#include "common/results/recorded_request.h"

namespace infergate {

// Times in ms from `origin_ns`, absent where a time is missing (0).
RecordedRequest recorded_request_of(const RequestRecord& r, int64_t origin_ns);

}  // namespace infergate
