// A repetition's "ramp" section (load.ramp, docs/results-schema.md; docs/metrics.md, "Ramps and
// saturation"): stage by stage, the offered rate or users, the requests sent, those finished
// within the stage per second and the stage's measured requests summarized as a whole run is;
// with load.stop_when, the judgement made as each stage ended and the stage that stopped the
// load.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/run_summary.h"
#include "common/results/section_reader.h"

namespace infergate {

// What the stop rule saw as a stage ended (the latencies are lower bounds when unfinished > 0).
struct RampJudgementRecord {
  int64_t requests = 0;    // measured requests scheduled in the stage
  int64_t unfinished = 0;  // of them, still in flight when judged
  int64_t errors = 0;
  double error_share = 0;
  double ttft_p95_ms = 0, e2e_p95_ms = 0;
  bool saturated = false;
  std::optional<std::string> reason;  // which bound was passed; present when saturated
};

struct RampStageRecord {
  int64_t stage = 0;
  double start_s = 0, end_s = 0;  // from the load's start
  double offered = 0;             // the stage's mean rate (requests/s) or users
  int64_t sent = 0;               // measured requests scheduled in the stage
  double finished_in_stage_rps = 0;
  // The stage's measured requests, with the repetition's metric names; its error_classes stay
  // empty (the file keeps a stage's summary without them, as the repetition's "errors" has all).
  RunSummary summary;
  std::optional<RampJudgementRecord> judgement;  // with load.stop_when
};

struct RampRecord {
  std::string field;                             // "load.rate" or "load.concurrency"
  std::string shape;                             // load.ramp.shape: "steps" or "linear"
  std::optional<int64_t> saturated_stage;        // null: no stage saturated
  std::optional<std::string> saturation_reason;  // the saturated stage's judgement's reason
  std::vector<RampStageRecord> stages;  // after a saturation stop, up to the last one sent in
};

// {"field", "shape", "saturated_stage" (null: none), "saturation_reason"?, "stages": [{"stage",
// "start_s", "end_s", "offered", "sent", "finished_in_stage_rps", "summary", "judgement"?}]};
// a judgement is {"requests", "unfinished", "errors", "error_share", "ttft_p95_ms",
// "e2e_p95_ms", "saturated", "reason"?}.
nlohmann::json to_json(const RampRecord& r);
// `r` is the "ramp" object itself.
RampRecord read_ramp_record(const SectionReader& r);

}  // namespace infergate
