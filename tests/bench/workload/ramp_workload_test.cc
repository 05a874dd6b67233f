// Ramps in workload files (docs/workload-schema.md, "Ramps"): the resolved form, the refusals
// with their JSON paths, and a ramp run end to end that stops where the engine saturates.
#include <catch2/catch.hpp>

#include "bench/driver/run_workload.h"
#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"
#include "common/results/results_file.h"
#include "tests/temp_dir.h"

using namespace infergate;

namespace {

using nlohmann::json;

json ramp_doc(const json& load_patch) {
  json doc = {{"schema", "infergate.workload/v1"},
              {"name", "ramp"},
              {"target", {{"type", "echo"}}},
              {"load",
               {{"mode", "open"},
                {"ramp", {{"from", 2}, {"to", 8}, {"stages", 4}, {"stage_s", 5}}},
                {"stop_when", {{"ttft_p95_ms", 500}}}}}};
  doc["load"].merge_patch(load_patch);
  return doc;
}

std::string refusal(const json& load_patch) {
  try {
    parse_workload(ramp_doc(load_patch), "w.json");
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("a ramp's resolved form has its stages and stop rule, and no rate") {
  const Workload w = parse_workload(ramp_doc(json::object()), "w.json");
  REQUIRE(w.load.ramp);
  CHECK(w.load.ramp->duration_s() == 20);
  CHECK(w.resolved["load"] ==
        json{{"mode", "open"},
             {"warmup_requests", 0},
             {"arrival", "poisson"},
             {"max_concurrency", 0},
             {"ramp",
              {{"shape", "steps"}, {"from", 2.0}, {"to", 8.0}, {"stages", 4}, {"stage_s", 5.0}}},
             {"stop_when", {{"ttft_p95_ms", 500.0}}}});
  const Workload closed = parse_workload(
      ramp_doc({{"mode", "closed"}, {"ramp", {{"shape", "linear"}, {"from", 1}, {"to", 16}}}}),
      "w.json");
  CHECK(closed.resolved["load"]["ramp"]["shape"] == "linear");
  CHECK_FALSE(closed.resolved["load"].contains("concurrency"));
}

TEST_CASE("a ramp's settings are checked and named by their JSON path") {
  CHECK_THAT(refusal({{"rate", 4}}),
             Catch::Contains("$.load.rate") && Catch::Contains("not used with a ramp"));
  CHECK_THAT(refusal({{"duration_s", 4}}), Catch::Contains("$.load.duration_s"));
  CHECK_THAT(refusal({{"ramp", {{"stages", 1}}}}),
             Catch::Contains("$.load.ramp.stages") && Catch::Contains("[2, 1000]"));
  CHECK_THAT(refusal({{"ramp", {{"from", 0}}}}), Catch::Contains("$.load.ramp.from"));
  CHECK_THAT(refusal({{"ramp", {{"shape", "exponential"}}}}),
             Catch::Contains("$.load.ramp.shape") && Catch::Contains("linear"));
  CHECK_THAT(refusal({{"mode", "closed"}, {"ramp", {{"from", 1.5}}}}),
             Catch::Contains("$.load.ramp.from"));
  CHECK_THAT(refusal({{"mode", "closed"}, {"ramp", {{"from", 8}, {"to", 2}}}}),
             Catch::Contains("$.load.ramp.to") && Catch::Contains("users only join"));
  CHECK_THAT(refusal({{"ramp", {{"to", 1e6}, {"stage_s", 10}}}}),
             Catch::Contains("$.load.ramp.stage_s") && Catch::Contains("1000000"));
  CHECK_THAT(refusal({{"stop_when", {{"ttft_p95_ms", -1}}}}),
             Catch::Contains("$.load.stop_when.ttft_p95_ms"));
  CHECK_THAT(refusal({{"stop_when", {{"error_share", 1}}}}),
             Catch::Contains("$.load.stop_when.error_share"));
  CHECK_THAT(refusal({{"stop_when", {{"p99", 1}}}}), Catch::Contains("$.load.stop_when.p99"));
  json empty = ramp_doc(json::object());
  empty["load"]["stop_when"] = json::object();
  CHECK_THROWS_WITH(parse_workload(empty, "w.json"), Catch::Contains("at least one bound"));
  // stop_when judges a ramp's stages; trace and sessions loads have no ramp.
  CHECK_THAT(refusal({{"ramp", nullptr}, {"num_requests", 4}}),
             Catch::Contains("$.load.stop_when") && Catch::Contains("without a ramp"));
  json doc = ramp_doc(json::object());
  doc["sweep"] = {{"field", "load.rate"}, {"values", {1, 2}}};
  CHECK_THROWS_WITH(parse_workload(doc, "w.json"),
                    Catch::Contains("$.sweep.field") && Catch::Contains("load.ramp gives it"));
}

TEST_CASE("the ramp workload stops at the stage that saturates the engine and keeps each stage") {
  infergate::testing::TempDir dir;
  RunOptions o;
  o.out_path = dir.file("r.json");
  o.quiet = true;
  // Shorter stages than the file's: the saturating rates come within CI's time.
  const Workload w =
      load_workload_file(std::string(INFERGATE_SOURCE_DIR) + "/workloads/ramp-saturation.json",
                         {"load.ramp.stage_s=1", "load.ramp.to=1000"});
  const json results = run_workload(w, o).results;
  // The ramp's stages, summaries and judgements read back as written.
  CHECK(results_to_json(parse_results(results, "ramp.json")) == results);
  const json& ramp = results["points"][0]["repetitions"][0]["ramp"];
  REQUIRE(ramp["saturated_stage"].is_number());
  const int saturated = ramp["saturated_stage"].get<int>();
  CHECK(saturated < 8);
  CHECK(ramp["field"] == "load.rate");
  CHECK_THAT(ramp["saturation_reason"].get<std::string>(), Catch::Contains("TTFT P95"));
  // The saturated stage, and perhaps the next one's sends while it was being judged.
  REQUIRE(ramp["stages"].size() >= size_t(saturated) + 1);
  REQUIRE(ramp["stages"].size() <= size_t(saturated) + 2);
  int64_t sent = 0;
  for (const json& stage : ramp["stages"]) {
    CHECK(stage["offered"] == 10 + 123.75 * stage["stage"].get<int>());
    if (stage["stage"].get<int>() <= saturated)
      CHECK(stage["judgement"]["requests"] == stage["sent"]);
    CHECK(stage["summary"]["num_requests"] == stage["sent"]);
    sent += stage["sent"].get<int64_t>();
  }
  CHECK(ramp["stages"][saturated]["judgement"]["saturated"] == true);
  CHECK(results["points"][0]["summary"]["num_requests"] == sent);
}

TEST_CASE("a simulated target ramps in virtual time and stops at the same stage run to run") {
  infergate::testing::TempDir dir;
  RunOptions o;
  o.out_path = dir.file("r.json");
  o.quiet = true;
  // Llama-3-8B on one simulated H100 saturates well within the ramp's 9 stages.
  const Workload w = load_workload_file(
      std::string(INFERGATE_SOURCE_DIR) + "/workloads/ramp-saturation.json",
      {"target.type=simulated", "target.hardware=h100-sxm", "target.model=llama-3-8b",
       "target.memory_utilization=0.9", "load.ramp.to=2000", "record_requests=true"});
  const json a = run_workload(w, o).results["points"][0]["repetitions"][0];
  const json b = run_workload(w, o).results["points"][0]["repetitions"][0];
  const json& ramp = a["ramp"];
  REQUIRE(ramp["saturated_stage"].is_number());
  CHECK(ramp["saturated_stage"].get<int>() < 8);
  CHECK_THAT(ramp["saturation_reason"].get<std::string>(), Catch::Contains("TTFT P95"));
  CHECK(ramp == b["ramp"]);
  CHECK(a["requests"] == b["requests"]);
}
