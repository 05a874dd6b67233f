#include "common/results/ramp_record.h"

namespace infergate {

namespace {

nlohmann::json judgement_json(const RampJudgementRecord& j) {
  nlohmann::json out = {{"requests", j.requests},       {"unfinished", j.unfinished},
                        {"errors", j.errors},           {"error_share", j.error_share},
                        {"ttft_p95_ms", j.ttft_p95_ms}, {"e2e_p95_ms", j.e2e_p95_ms},
                        {"saturated", j.saturated}};
  if (j.reason) out["reason"] = *j.reason;
  return out;
}

nlohmann::json stage_json(const RampStageRecord& s) {
  nlohmann::json out = {{"stage", s.stage},
                        {"start_s", s.start_s},
                        {"end_s", s.end_s},
                        {"offered", s.offered},
                        {"sent", s.sent},
                        {"finished_in_stage_rps", s.finished_in_stage_rps},
                        {"summary", summary_to_json(s.summary)}};
  if (s.judgement) out["judgement"] = judgement_json(*s.judgement);
  return out;
}

RampJudgementRecord read_judgement(const SectionReader& r) {
  RampJudgementRecord j;
  j.requests = r.integer("requests");
  j.unfinished = r.integer("unfinished");
  j.errors = r.integer("errors");
  j.error_share = r.number("error_share");
  j.ttft_p95_ms = r.number("ttft_p95_ms");
  j.e2e_p95_ms = r.number("e2e_p95_ms");
  j.saturated = r.flag("saturated");
  j.reason = r.optional_text("reason");
  return j;
}

RampStageRecord read_stage(const SectionReader& r) {
  RampStageRecord s;
  s.stage = r.integer("stage");
  s.start_s = r.number("start_s");
  s.end_s = r.number("end_s");
  s.offered = r.number("offered");
  s.sent = r.integer("sent");
  s.finished_in_stage_rps = r.number("finished_in_stage_rps");
  s.summary = read_run_summary(r.object("summary"));
  if (r.has("judgement")) s.judgement = read_judgement(r.object("judgement"));
  return s;
}

}  // namespace

nlohmann::json to_json(const RampRecord& r) {
  nlohmann::json stages = nlohmann::json::array();
  for (const RampStageRecord& s : r.stages) stages.push_back(stage_json(s));
  nlohmann::json out = {{"field", r.field},
                        {"shape", r.shape},
                        {"saturated_stage", r.saturated_stage ? nlohmann::json(*r.saturated_stage)
                                                              : nlohmann::json(nullptr)},
                        {"stages", std::move(stages)}};
  if (r.saturation_reason) out["saturation_reason"] = *r.saturation_reason;
  return out;
}

RampRecord read_ramp_record(const SectionReader& r) {
  RampRecord out;
  out.field = r.text("field");
  out.shape = r.text("shape");
  out.saturated_stage = r.optional_integer("saturated_stage");
  out.saturation_reason = r.optional_text("saturation_reason");
  for (const SectionReader& s : r.array("stages")) out.stages.push_back(read_stage(s));
  return out;
}

}  // namespace infergate
