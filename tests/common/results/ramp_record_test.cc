// The repetition's "ramp" section: what the writer writes, stage summaries and judgements
// included, the reader reads back to the same JSON, and a value of the wrong type is refused
// with its JSON path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/ramp_record.h"

using namespace infergate;
using nlohmann::json;

namespace {

RampStageRecord stage(int64_t i, int64_t sent) {
  RampStageRecord s;
  s.stage = i;
  s.start_s = 2.0 * double(i);
  s.end_s = s.start_s + 2;
  s.offered = 10 + 5.5 * double(i);
  s.sent = sent;
  s.finished_in_stage_rps = double(sent) / 2.25;
  s.summary.num_requests = sent;
  s.summary.num_completed = sent;
  s.summary.ttft_ms = {sent, 3.5, 1.0, 3.0, 5.0, 6.0, 7.5, 9.0};
  s.summary.peak_gpu_memory_bytes = 1.5e9;
  return s;
}

RampJudgementRecord judgement(bool saturated) {
  RampJudgementRecord j;
  j.requests = 20;
  j.unfinished = saturated ? 3 : 0;
  j.errors = 1;
  j.error_share = 0.05;
  j.ttft_p95_ms = saturated ? 812.4 : 40.0;
  j.e2e_p95_ms = 1200.0;
  j.saturated = saturated;
  if (saturated) j.reason = "TTFT P95 812.4 ms (at least) > 500 ms";
  return j;
}

// With load.stop_when and a saturated stage, or without either.
RampRecord ramp(bool saturated) {
  RampRecord r;
  r.field = saturated ? "load.rate" : "load.concurrency";
  r.shape = "steps";
  r.stages = {stage(0, 20), stage(1, 31), stage(2, 4)};
  if (!saturated) return r;
  r.stages[0].judgement = judgement(false);
  r.stages[1].judgement = judgement(true);
  r.saturated_stage = 1;
  r.saturation_reason = *judgement(true).reason;
  return r;
}

json read_back(const json& j) {
  return to_json(read_ramp_record(SectionReader(j, "r.json", "$.ramp")));
}

}  // namespace

TEST_CASE("a ramp record reads back to the JSON it was written as") {
  for (const bool saturated : {true, false}) {
    INFO("saturated: " << saturated);
    const json written = to_json(ramp(saturated));
    CHECK(written.contains("saturation_reason") == saturated);
    CHECK(written["saturated_stage"].is_null() == !saturated);
    CHECK(written["stages"][1].contains("judgement") == saturated);
    CHECK(read_back(written).dump() == written.dump());  // dump: integers stay integers
  }
}

TEST_CASE("a ramp record is written in the results file's shape") {
  const json j = to_json(ramp(true));
  CHECK(j["saturated_stage"].is_number_integer());
  CHECK(j["stages"][1]["sent"].is_number_integer());
  CHECK(j["stages"][1]["offered"].is_number_float());
  CHECK(j["stages"][1]["summary"] == summary_to_json(ramp(true).stages[1].summary));
  CHECK(j["stages"][1]["judgement"].dump() ==
        R"({"e2e_p95_ms":1200.0,"error_share":0.05,"errors":1,"reason":)"
        R"("TTFT P95 812.4 ms (at least) > 500 ms","requests":20,"saturated":true,)"
        R"("ttft_p95_ms":812.4,"unfinished":3})");
  CHECK_FALSE(j["stages"][0]["judgement"].contains("reason"));
  CHECK_FALSE(j["stages"][2].contains("judgement"));
}

TEST_CASE("a ramp record of the wrong type is refused with its path") {
  json j = to_json(ramp(true));
  j["stages"][1]["judgement"]["saturated"] = "yes";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("r.json: $.ramp.stages[1].judgement.saturated") &&
                                      Catch::Contains("expected a boolean, got string"));
  j = to_json(ramp(true));
  j["stages"][2]["summary"]["e2e_ms"]["p99"] = nullptr;
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.ramp.stages[2].summary.e2e_ms.p99: expected "
                                                  "a number, got null"));
  j = to_json(ramp(true));
  j["saturated_stage"] = "1";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.ramp.saturated_stage"));
  j = to_json(ramp(false));
  j["stages"] = json::object();
  CHECK_THROWS_WITH(read_back(j), Catch::Contains("$.ramp.stages: expected an array"));
}
