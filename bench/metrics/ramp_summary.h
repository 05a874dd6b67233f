// A ramp's figures stage by stage (docs/metrics.md, "Ramps and saturation"): each stage's
// offered rate or users, its measured requests summarized as a whole run is (the same metric
// names), the requests that finished within the stage per second, and, with load.stop_when,
// the judgement made as it ended and the stage that stopped the load.
#pragma once

#include <nlohmann/json.hpp>

#include "bench/metrics/driver_result.h"
#include "bench/workload/workload.h"

namespace infergate {

// {"field", "saturated_stage" (null: none), "saturation_reason"?, "stages": [{"stage",
// "start_s", "end_s", "offered", "sent", "finished_in_stage_rps", "summary", "judgement"?}]};
// after a saturation stop, the stages nothing was sent in are left out.
nlohmann::json ramp_summary(const DriverResult& run, const LoadSpec& load, const SloSpec& slo);

}  // namespace infergate
