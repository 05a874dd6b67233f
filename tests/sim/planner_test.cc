// `infergate plan`'s enumeration, memory arithmetic and ranking on the worked example of
// docs/simulator.md: Llama-3-70B on two A100 80GB.
#include <catch2/catch.hpp>

#include <algorithm>

#include "../temp_dir.h"
#include "bench/plan/deployment_planner.h"

using namespace infergate;

namespace {

PlanRequest seventy_b_on_two_a100s(const std::string& out_dir) {
  PlanRequest r;
  r.workload = std::string(INFERGATE_SOURCE_DIR) + "/workloads/plan-chat.json";
  r.overrides = {"load.num_requests=60"};
  r.model = "llama-3-70b";
  r.hardware = "a100-80gb";
  r.gpus = 2;
  r.price_per_gpu_hour = 2;
  r.out_dir = out_dir;
  return r;
}

const PlanCandidate* find(const std::vector<PlanCandidate>& list, const std::string& label) {
  for (const PlanCandidate& c : list) {
    if (c.label() == label) return &c;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("plan lays Llama-3-70B out on two A100s and says why the rest does not fit") {
  infergate::testing::TempDir dir;
  const Plan plan = plan_deployment(seventy_b_on_two_a100s(dir.path().string()));
  // bf16 weights on one device each (data parallelism): 141 GB of weights per 80 GB device.
  const PlanCandidate* dp2 = find(plan.rejected, "TP1 PP1 EP1 DP2 auto KV bf16");
  REQUIRE(dp2 != nullptr);
  CHECK_THAT(dp2->rejected, Catch::Contains("bf16 weights: 141.1 GB"));
  // Split over both devices they fit, with little room for KV.
  const PlanCandidate* tp2 = find(plan.ranked, "TP2 PP1 EP1 DP1 auto KV bf16");
  REQUIRE(tp2 != nullptr);
  CHECK(tp2->memory.weights_bytes == Approx(141.1e9 / 2).epsilon(0.01));
  CHECK(tp2->memory.kv_bytes < 5e9);
  // The A100 has no fp8: the default formats leave it out.
  for (const auto* list : {&plan.ranked, &plan.rejected}) {
    for (const PlanCandidate& c : *list) CHECK(c.weight_dtype != "fp8");
  }
  // int8 weights leave 37 GB of KV per device and meet the SLO best.
  REQUIRE_FALSE(plan.ranked.empty());
  CHECK(plan.ranked.front().weight_dtype == "w8a8");
  CHECK(plan.ranked.front().tensor_parallel == 2);
  CHECK(plan.ranked.front().memory.kv_bytes > 30e9);
  CHECK(plan.ranked.front().goodput_rps > 0);
  CHECK(plan.ranked.front().cost_per_million_tokens > 0);
  for (size_t i = 1; i < plan.ranked.size(); ++i) {
    CHECK(plan.ranked[i - 1].goodput_rps >= plan.ranked[i].goodput_rps);
  }
}

TEST_CASE("plan refuses what it cannot weigh, naming it") {
  infergate::testing::TempDir dir;
  PlanRequest r = seventy_b_on_two_a100s(dir.path().string());
  r.weight_dtypes = {"fp8"};
  r.kv_dtypes = {"bf16"};
  const Plan fp8 = plan_deployment(r);
  CHECK(fp8.ranked.empty());
  REQUIRE_FALSE(fp8.rejected.empty());
  CHECK_THAT(fp8.rejected.front().rejected, Catch::Contains("has no fp8 compute"));
  r.gpus = 0;
  CHECK_THROWS_WITH(plan_deployment(r), Catch::Contains("--gpus must be in [1, 1024]"));
  r = seventy_b_on_two_a100s(dir.path().string());
  r.workload = std::string(INFERGATE_SOURCE_DIR) + "/workloads/rate-sweep.json";
  CHECK_THROWS_WITH(plan_deployment(r), Catch::Contains("sweeps load.rate"));
}
