// A ramp's figures stage by stage (docs/metrics.md, "Ramps and saturation"): each stage's
// offered rate or users, its measured requests summarized as a whole run is (the same metric
// names), the requests that finished within the stage per second, and, with load.stop_when,
// the judgement made as it ended and the stage that stopped the load.
#pragma once

#include "bench/metrics/driver_result.h"
#include "bench/workload/workload.h"
#include "common/results/ramp_record.h"

namespace infergate {

// The repetition's "ramp" section (common/results/ramp_record.h) of a run with `load.ramp`;
// after a saturation stop, the stages nothing was sent in are left out.
RampRecord ramp_summary(const DriverResult& run, const LoadSpec& load, const SloSpec& slo);

}  // namespace infergate
