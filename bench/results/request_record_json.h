// A per-request record as the results file's "requests" rows hold it (docs/results-schema.md).
// The rest of the file is written by common/results (run_summary.h, results_file.h).
#pragma once

#include <nlohmann/json.hpp>

#include "bench/metrics/request_record.h"

namespace infergate {

// A repetition's "requests" row: times in ms from `origin_ns`, null where a time is missing.
nlohmann::json record_to_json(const RequestRecord& r, int64_t origin_ns);

}  // namespace infergate
