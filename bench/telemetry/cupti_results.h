// The `cupti` section of a results file's repetition (common/results/cupti_record.h,
// docs/results-schema.md "CUPTI") from what a CuptiTracer saw: per-name totals and the GPU's
// busy share of the run.
#pragma once

#include <cstdint>

#include "bench/telemetry/cupti_tracer.h"
#include "common/results/cupti_record.h"

namespace infergate {

// Available: the kernels and memcpys by name (longest total first) and the GPU's busy fraction
// over [begin_ns, end_ns); otherwise the tracer's reason, with no busy fraction. Call after
// tracer.stop().
CuptiRecord cupti_record(const CuptiTracer& tracer, int64_t begin_ns, int64_t end_ns);

}  // namespace infergate
