// What one run of the load driver (bench/driver/load_driver.h) hands the metrics: a record per
// sent request, and how sessions and a ramp's stages ended.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/metrics/request_record.h"
#include "bench/metrics/saturation_check.h"

namespace infergate {

struct DriverResult {
  std::vector<RequestRecord> records;  // one per sent request, in index order
  bool incomplete = false;             // stopped before the plan was done
  // Sessions: those held to their last turn, and those ended early (a failed answer, or a
  // target that gave no token ids to build the next turn from) with the first reason.
  int64_t sessions_completed = 0, sessions_cut = 0;
  std::string sessions_cut_reason;
  // A ramp with load.stop_when: each ended stage's judgement, in stage order, and the stage
  // whose judgement stopped the load (-1: none did).
  std::vector<StageJudgement> stage_judgements;
  int saturated_stage = -1;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
};

}  // namespace infergate
