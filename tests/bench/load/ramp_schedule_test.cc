// Ramps (docs/metrics.md, "Ramps and saturation"): the offered rate and users stage by stage,
// the time change that maps a unit-rate process onto a ramp, and the stop rule's judgement.
#include <catch2/catch.hpp>

#include "bench/load/ramp_schedule.h"
#include "bench/metrics/saturation_check.h"

using namespace infergate;

namespace {

RampSpec ramp(const std::string& shape, double from, double to, int stages, double stage_s) {
  RampSpec r;
  r.shape = shape;
  r.from = from;
  r.to = to;
  r.stages = stages;
  r.stage_s = stage_s;
  return r;
}

RequestRecord record(int64_t scheduled_ms, int64_t first_ms, int64_t finished_ms,
                     RequestStatus status = RequestStatus::kOk) {
  RequestRecord r;
  r.scheduled_ns = scheduled_ms * 1'000'000;
  r.first_token_ns = first_ms * 1'000'000;
  r.finished_ns = finished_ms * 1'000'000;
  r.status = status;
  return r;
}

}  // namespace

TEST_CASE("a stepped ramp holds each stage's rate and offers rate x stage_s in it",
          "[bench][ramp]") {
  const RampSchedule r(ramp("steps", 2, 8, 4, 5));  // 2, 4, 6, 8 requests/s
  CHECK(r.value_at(0) == 2);
  CHECK(r.value_at(7.5) == 4);
  CHECK(r.value_at(19.9) == 8);
  CHECK(r.stage_of(10) == 2);
  CHECK(r.stage_of(25) == 3);  // clamped to the last stage
  CHECK(r.cumulative(5) == Approx(10));
  CHECK(r.cumulative(20) == Approx(100));
  CHECK(r.offset_of_cumulative(10) == Approx(5));
  CHECK(r.offset_of_cumulative(12) == Approx(5.5));  // 2 requests into the 4/s stage
  CHECK(r.offset_of_cumulative(100) == r.duration_s());
  CHECK(r.offset_of_cumulative(150) == r.duration_s());
  CHECK(r.stage_mean(1) == 4);
}

TEST_CASE("a linear ramp's offered count inverts back to the time", "[bench][ramp]") {
  const RampSchedule r(ramp("linear", 1, 3, 5, 2));  // 1 -> 3 requests/s over 10 s
  CHECK(r.value_at(5) == Approx(2));
  CHECK(r.cumulative(10) == Approx(20));  // 1 x 10 + 2 x 10 / 2
  CHECK(r.stage_mean(0) == Approx(1.2));
  for (double t : {0.0, 0.3, 2.5, 7.0, 9.99})
    CHECK(r.offset_of_cumulative(r.cumulative(t)) == Approx(t).margin(1e-9));
  // A falling rate inverts too.
  const RampSchedule down(ramp("linear", 4, 1, 2, 5));
  for (double t : {0.5, 4.0, 9.0})
    CHECK(down.offset_of_cumulative(down.cumulative(t)) == Approx(t));
}

TEST_CASE("a closed ramp's users join at stage starts, or evenly when linear", "[bench][ramp]") {
  CHECK(RampSchedule(ramp("steps", 1, 4, 4, 3)).user_joins_s() == std::vector<double>{0, 3, 6, 9});
  CHECK(RampSchedule(ramp("steps", 2, 8, 3, 1)).user_joins_s() ==
        std::vector<double>{0, 0, 1, 1, 1, 2, 2, 2});  // 2, 5, 8 users
  CHECK(RampSchedule(ramp("linear", 2, 4, 3, 10)).user_joins_s() ==
        std::vector<double>{0, 0, 10, 20});
}

TEST_CASE("a stage is judged with unfinished requests at their age so far", "[bench][ramp]") {
  std::vector<RequestRecord> records;
  for (int i = 0; i < 19; ++i) records.push_back(record(i, i + 10, i + 20));  // TTFT 10 ms
  records.push_back(record(19, 0, 0));  // still waiting at 1,019 ms: TTFT >= 1,000 ms
  std::vector<const RequestRecord*> stage;
  for (const RequestRecord& r : records) stage.push_back(&r);
  SaturationStopSpec bounds;
  bounds.ttft_p95_ms = 100;
  const StageJudgement j = judge_stage(stage, 1'019'000'000, bounds);
  CHECK(j.requests == 20);
  CHECK(j.unfinished == 1);
  // P95 of nineteen 10s and one 1000 by linear interpolation: rank 18.05.
  CHECK(j.ttft_p95_ms == Approx(10 + 0.05 * 990));
  CHECK(j.saturated == false);
  records[18] = record(18, 0, 0);  // a second one waiting: rank 18.05 now lies between them
  const StageJudgement k = judge_stage(stage, 1'019'000'000, bounds);
  CHECK(k.saturated);
  CHECK_THAT(k.reason, Catch::Contains("TTFT P95") && Catch::Contains("(at least) > 100 ms"));
}

TEST_CASE("a stage's failed requests are judged by their share", "[bench][ramp]") {
  std::vector<RequestRecord> records = {record(0, 5, 10), record(1, 0, 3, RequestStatus::kError),
                                        record(2, 7, 12), record(3, 8, 13)};
  std::vector<const RequestRecord*> stage;
  for (const RequestRecord& r : records) stage.push_back(&r);
  SaturationStopSpec bounds;
  bounds.error_share = 0.2;
  const StageJudgement j = judge_stage(stage, 20'000'000, bounds);
  CHECK(j.errors == 1);
  CHECK(j.error_share == 0.25);
  CHECK(j.saturated);
  CHECK_THAT(j.reason, Catch::Contains("error share 0.25 > 0.2 (1 of 4 requests failed)"));
  bounds.error_share = 0.25;  // at the bound is not past it
  CHECK_FALSE(judge_stage(stage, 20'000'000, bounds).saturated);
}
