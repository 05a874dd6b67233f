// The over-saturation stop of a ramp (load.stop_when, docs/metrics.md "Ramps and saturation"):
// a stage's requests judged the moment the stage ends. A request still waiting for its first
// token counts with its age so far (a lower bound of its TTFT and E2E), so a target that has
// stopped answering is caught, not waited for; a stage can only look better than it is, never
// worse, so the rule does not cry wolf.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/metrics/request_record.h"
#include "bench/workload/workload.h"

namespace infergate {

struct StageJudgement {
  int64_t requests = 0;    // measured requests scheduled in the stage
  int64_t unfinished = 0;  // of them, still in flight when judged
  int64_t errors = 0;
  double ttft_p95_ms = 0, e2e_p95_ms = 0;  // over requests not failed, lower bounds if unfinished
  double error_share = 0;
  bool saturated = false;
  std::string reason;  // which bound, e.g. "TTFT P95 812.4 ms (at least) > 500 ms"
};

// `stage`: the measured records scheduled in the stage; `now_ns`: the moment of judgement.
StageJudgement judge_stage(const std::vector<const RequestRecord*>& stage, int64_t now_ns,
                           const SaturationStopSpec& bounds);

}  // namespace infergate
