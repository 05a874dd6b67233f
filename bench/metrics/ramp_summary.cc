#include "bench/metrics/ramp_summary.h"

#include <vector>

#include "bench/load/ramp_schedule.h"
#include "bench/metrics/summarize.h"

namespace infergate {

namespace {

RampJudgementRecord judgement_record(const StageJudgement& j) {
  RampJudgementRecord out;
  out.requests = j.requests;
  out.unfinished = j.unfinished;
  out.errors = j.errors;
  out.error_share = j.error_share;
  out.ttft_p95_ms = j.ttft_p95_ms;
  out.e2e_p95_ms = j.e2e_p95_ms;
  out.saturated = j.saturated;
  if (j.saturated) out.reason = j.reason;
  return out;
}

RunSummary stage_summary(const std::vector<RequestRecord>& records, const SloSpec& slo) {
  RunSummary s = summarize_run(records, slo);
  s.error_classes.clear();  // not in the file: the repetition's "errors" has every stage's
  return s;
}

}  // namespace

RampRecord ramp_summary(const DriverResult& run, const LoadSpec& load, const SloSpec& slo) {
  const RampSchedule ramp(*load.ramp);
  std::vector<std::vector<RequestRecord>> by_stage(size_t(ramp.stages()));
  std::vector<int64_t> finished_in(size_t(ramp.stages()), 0);
  for (const RequestRecord& r : run.records) {
    if (r.warmup || r.scheduled_ns == 0) continue;
    by_stage[size_t(ramp.stage_of(double(r.scheduled_ns - run.start_ns) * 1e-9))].push_back(r);
    const double end_s = double(r.finished_ns - run.start_ns) * 1e-9;
    if (r.finished_ns > 0 && r.status == RequestStatus::kOk && end_s < ramp.duration_s()) {
      ++finished_in[size_t(ramp.stage_of(end_s))];
    }
  }
  // After a saturation stop: up to the last stage anything was sent in (the judgement comes up
  // to 100 ms after a stage's end, and sends go on meanwhile).
  int last = ramp.stages() - 1;
  if (run.saturated_stage >= 0) {
    last = run.saturated_stage;
    while (last + 1 < ramp.stages() && !by_stage[size_t(last + 1)].empty()) ++last;
  }
  RampRecord out;
  out.field = load.mode == LoadMode::kOpen ? "load.rate" : "load.concurrency";
  out.shape = load.ramp->shape;
  for (int i = 0; i <= last; ++i) {
    RampStageRecord& stage = out.stages.emplace_back();
    stage.stage = i;
    stage.start_s = ramp.stage_start_s(i);
    stage.end_s = ramp.stage_start_s(i + 1);
    stage.offered = ramp.stage_mean(i);
    stage.sent = int64_t(by_stage[size_t(i)].size());
    stage.finished_in_stage_rps = double(finished_in[size_t(i)]) / (stage.end_s - stage.start_s);
    stage.summary = stage_summary(by_stage[size_t(i)], slo);
    if (size_t(i) < run.stage_judgements.size()) {
      stage.judgement = judgement_record(run.stage_judgements[size_t(i)]);
    }
  }
  if (run.saturated_stage >= 0) {
    out.saturated_stage = run.saturated_stage;
    out.saturation_reason = run.stage_judgements[size_t(run.saturated_stage)].reason;
  }
  return out;
}

}  // namespace infergate
