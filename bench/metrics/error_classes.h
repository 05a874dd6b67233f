// Failed requests grouped by a stable class ("connection refused", "timeout", "http status 503",
// "engine error", ...), so a run whose requests failed says how and why instead of showing a
// table of zeros (docs/metrics.md, "Failed requests").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/request_record.h"
#include "common/results/run_summary.h"

namespace infergate {

// The class of one error message as the targets write them (bench/targets/openai_target.cc,
// engine_target.cc); "other error" for a message none of them writes.
std::string error_class_of(std::string_view message);

// The measured (non-warm-up) kError records grouped by class, most frequent first (ties: the
// class seen first).
std::vector<ErrorClass> classify_errors(const std::vector<RequestRecord>& records);

}  // namespace infergate
