// The `cupti` object of a results file's repetition (docs/results-schema.md, "CUPTI"): what a
// CuptiTracer saw, reduced to per-name totals and the GPU's busy share of the run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "bench/telemetry/cupti_tracer.h"

namespace infergate {

// {"enabled": true, "available", "unavailable_reason" (null when available), "kernels" and
// "memcpys" ([{name, count, total_ms}], longest total first), "gpu_busy_fraction" over
// [begin_ns, end_ns) (null when unavailable), "dropped_records"}. Call after tracer.stop().
nlohmann::json cupti_results_json(const CuptiTracer& tracer, int64_t begin_ns, int64_t end_ns);

}  // namespace infergate
