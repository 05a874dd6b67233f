// The "ramp" section from a run's records: stage by stage, the stages after a saturation stop
// that nothing was sent in left out, written in the results file's shape (docs/results-schema.md).
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bench/metrics/ramp_summary.h"
#include "bench/metrics/summarize.h"

using namespace infergate;

namespace {

constexpr int64_t kMs = 1'000'000;  // ns
constexpr int64_t kT0 = 1000 * kMs;

RequestRecord request(int64_t scheduled_ms, int64_t finished_ms, RequestStatus status) {
  RequestRecord r;
  r.scheduled_ns = kT0 + scheduled_ms * kMs;
  r.sent_ns = r.scheduled_ns;
  r.first_token_ns = r.scheduled_ns + 10 * kMs;
  r.finished_ns = kT0 + finished_ms * kMs;
  r.status = status;
  if (status == RequestStatus::kError) r.error = "HTTP 503: busy";
  return r;
}

StageJudgement judged(bool saturated) {
  StageJudgement j;
  j.requests = 2;
  j.saturated = saturated;
  j.reason = saturated ? "error share 0.5 > 0.1" : "";
  j.error_share = saturated ? 0.5 : 0;
  return j;
}

}  // namespace

TEST_CASE("a ramp is summarized stage by stage up to its saturation stop") {
  LoadSpec load;
  load.mode = LoadMode::kOpen;
  load.ramp = RampSpec{"steps", 10, 30, 3, 1};
  DriverResult run;
  run.start_ns = kT0;
  run.records = {request(100, 600, RequestStatus::kOk), request(500, 900, RequestStatus::kOk),
                 request(1200, 1300, RequestStatus::kError),
                 request(1500, 2200, RequestStatus::kOk)};
  run.stage_judgements = {judged(false), judged(true)};
  run.saturated_stage = 1;
  const RampRecord r = ramp_summary(run, load, SloSpec{});
  REQUIRE(r.stages.size() == 2);  // nothing was sent in stage 2
  CHECK(summary_to_json(r.stages[1].summary) ==
        summary_to_json(summarize_run({run.records[2], run.records[3]}, SloSpec{})));
  CHECK(r.stages[1].summary.error_classes.empty());  // the repetition's "errors" has them
  nlohmann::json j = to_json(r);
  CHECK(j["stages"][1]["summary"]["num_errors"] == 1);
  for (nlohmann::json& stage : j["stages"]) stage.erase("summary");
  CHECK(j.dump() ==
        R"({"field":"load.rate","saturated_stage":1,"saturation_reason":"error share 0.5 > 0.1",)"
        R"("shape":"steps","stages":[{"end_s":1.0,"finished_in_stage_rps":2.0,"judgement":)"
        R"({"e2e_p95_ms":0.0,"error_share":0.0,"errors":0,"requests":2,"saturated":false,)"
        R"("ttft_p95_ms":0.0,"unfinished":0},"offered":10.0,"sent":2,"stage":0,"start_s":0.0},)"
        R"({"end_s":2.0,"finished_in_stage_rps":0.0,"judgement":{"e2e_p95_ms":0.0,)"
        R"("error_share":0.5,"errors":0,"reason":"error share 0.5 > 0.1","requests":2,)"
        R"("saturated":true,"ttft_p95_ms":0.0,"unfinished":0},"offered":20.0,"sent":2,)"
        R"("stage":1,"start_s":1.0}]})");
}

TEST_CASE("a ramp without a stop rule has every stage, no judgement and no saturation") {
  LoadSpec load;
  load.ramp = RampSpec{"linear", 1, 4, 2, 2};
  DriverResult run;
  run.start_ns = kT0;
  run.records = {request(100, 600, RequestStatus::kOk)};
  const nlohmann::json j = to_json(ramp_summary(run, load, SloSpec{}));
  CHECK(j["field"] == "load.concurrency");
  CHECK(j["saturated_stage"].is_null());
  CHECK_FALSE(j.contains("saturation_reason"));
  REQUIRE(j["stages"].size() == 2);
  CHECK_FALSE(j["stages"][0].contains("judgement"));
  CHECK(j["stages"][1]["sent"] == 0);
}
