#include "bench/metrics/ramp_summary.h"

#include <vector>

#include "bench/load/ramp_schedule.h"
#include "bench/metrics/summarize.h"
#include "common/results/run_summary.h"

namespace infergate {

namespace {

nlohmann::json judgement_json(const StageJudgement& j) {
  nlohmann::json out = {{"requests", j.requests},       {"unfinished", j.unfinished},
                        {"errors", j.errors},           {"error_share", j.error_share},
                        {"ttft_p95_ms", j.ttft_p95_ms}, {"e2e_p95_ms", j.e2e_p95_ms},
                        {"saturated", j.saturated}};
  if (j.saturated) out["reason"] = j.reason;
  return out;
}

}  // namespace

nlohmann::json ramp_summary(const DriverResult& run, const LoadSpec& load, const SloSpec& slo) {
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
  nlohmann::json stages = nlohmann::json::array();
  for (int i = 0; i <= last; ++i) {
    const double start = ramp.stage_start_s(i), end = ramp.stage_start_s(i + 1);
    nlohmann::json stage = {
        {"stage", i},
        {"start_s", start},
        {"end_s", end},
        {"offered", ramp.stage_mean(i)},
        {"sent", by_stage[size_t(i)].size()},
        {"finished_in_stage_rps", double(finished_in[size_t(i)]) / (end - start)},
        {"summary", summary_to_json(summarize_run(by_stage[size_t(i)], slo))}};
    if (size_t(i) < run.stage_judgements.size()) {
      stage["judgement"] = judgement_json(run.stage_judgements[size_t(i)]);
    }
    stages.push_back(std::move(stage));
  }
  nlohmann::json out = {{"field", load.mode == LoadMode::kOpen ? "load.rate" : "load.concurrency"},
                        {"shape", load.ramp->shape},
                        {"saturated_stage", nullptr},
                        {"stages", std::move(stages)}};
  if (run.saturated_stage >= 0) {
    out["saturated_stage"] = run.saturated_stage;
    out["saturation_reason"] = run.stage_judgements[size_t(run.saturated_stage)].reason;
  }
  return out;
}

}  // namespace infergate
