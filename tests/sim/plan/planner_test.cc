// `infergate plan`'s enumeration, memory arithmetic and ranking on the worked example of
// docs/simulator.md: Llama-3-70B on two A100 80GB.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <stdexcept>

#include "sim/plan/deployment_planner.h"
#include "tests/temp_dir.h"

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

TEST_CASE("plan refuses options no layout could use up front, naming the option") {
  infergate::testing::TempDir dir;
  const std::string bad_calibration = dir.path().string() + "/garbage.json";
  { std::ofstream(bad_calibration) << "{not json"; }
  const struct {
    const char* what;
    std::function<void(PlanRequest&)> change;
    const char* message;
  } cases[] = {
      {"fp8 on an A100", [](PlanRequest& r) { r.weight_dtypes = {"fp8"}; }, "--weight-dtype fp8: "},
      {"an unknown weight format", [](PlanRequest& r) { r.weight_dtypes = {"bogus"}; },
       "--weight-dtype bogus"},
      {"an unknown KV format", [](PlanRequest& r) { r.kv_dtypes = {"bogus"}; }, "--kv-dtype bogus"},
      {"a weight format as KV format", [](PlanRequest& r) { r.kv_dtypes = {"q4_0"}; },
       "--kv-dtype q4_0: not a KV format"},
      {"a negative price", [](PlanRequest& r) { r.price_per_gpu_hour = -1; },
       "--price-per-gpu-hour must be a finite number >= 0, got -1"},
      {"a NaN price", [](PlanRequest& r) { r.price_per_gpu_hour = std::nan(""); },
       "--price-per-gpu-hour"},
      {"a calibration that is not JSON", [&](PlanRequest& r) { r.calibration = bad_calibration; },
       "--calibration: "},
      {"no devices", [](PlanRequest& r) { r.gpus = 0; }, "--gpus must be in [1, 1024]"},
      {"a sweep",
       [](PlanRequest& r) {
         r.workload = std::string(INFERGATE_SOURCE_DIR) + "/workloads/rate-sweep.json";
       },
       "sweeps load.rate"},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    PlanRequest r = seventy_b_on_two_a100s(dir.path().string());
    c.change(r);
    CHECK_THROWS_AS(plan_deployment(r), std::invalid_argument);
    CHECK_THROWS_WITH(plan_deployment(r), Catch::Contains(c.message));
  }
}

TEST_CASE("plan with nothing that fits gives every layout's reason") {
  infergate::testing::TempDir dir;
  PlanRequest r = seventy_b_on_two_a100s(dir.path().string());
  r.gpus = 1;
  r.weight_dtypes = {"bf16"};  // 141 GB of weights on one 80 GB device
  const Plan plan = plan_deployment(r);
  CHECK(plan.ranked.empty());
  REQUIRE_FALSE(plan.rejected.empty());
  for (const PlanCandidate& c : plan.rejected) CHECK_FALSE(c.rejected.empty());
}

TEST_CASE("plan answers the prefill:decode question with every split of the replicas") {
  // docs/simulator.md's worked example: Llama-3-70B in fp8 on 8 H100s, 2,000-token prompts and
  // 500-token answers at 12 requests/s, SLO TTFT 1 s and TPOT 20 ms.
  infergate::testing::TempDir dir;
  PlanRequest r;
  r.workload = std::string(INFERGATE_SOURCE_DIR) + "/workloads/plan-pd.json";
  r.model = "llama-3-70b";
  r.hardware = "h100-sxm";
  r.gpus = 8;
  r.weight_dtypes = {"fp8"};
  r.kv_dtypes = {"fp8_e4m3"};
  r.out_dir = dir.path().string();
  const Plan plan = plan_deployment(r);
  const auto tp2 = [&](const std::string& replicas) {
    const PlanCandidate* c = find(plan.ranked, "TP2 PP1 EP1 " + replicas + " fp8 KV fp8_e4m3");
    REQUIRE(c != nullptr);
    return *c;
  };
  // Four TP2 workers: colocated, their decodes share steps with 2,000-token prefills and miss
  // the TPOT SLO; one prefill worker cannot keep up with the prompts; three leave one decode
  // worker too busy; two and two serve the most within the SLO.
  const PlanCandidate colocated = tp2("DP4"), one = tp2("P1:D3"), two = tp2("P2:D2"),
                      three = tp2("P3:D1");
  CHECK(colocated.tpot_p50_ms > 20);
  CHECK(one.ttft_p50_ms > 1000);
  CHECK(three.tpot_p50_ms > 20);
  CHECK(two.tpot_p95_ms < 20);
  CHECK(two.goodput_rps > 2 * colocated.goodput_rps);
  CHECK(two.goodput_rps > one.goodput_rps);
  CHECK(two.goodput_rps > three.goodput_rps);
  CHECK(two.data_parallel == 4);
  CHECK(two.prefill_replicas == 2);
  // Disaggregated TP4 workers decode faster than colocated ones, at a TTFT price.
  const PlanCandidate* dp2 = find(plan.ranked, "TP4 PP1 EP1 DP2 fp8 KV fp8_e4m3");
  const PlanCandidate* pd = find(plan.ranked, "TP4 PP1 EP1 P1:D1 fp8 KV fp8_e4m3");
  REQUIRE(dp2 != nullptr);
  REQUIRE(pd != nullptr);
  CHECK(pd->tpot_p50_ms < dp2->tpot_p50_ms);
  CHECK(pd->ttft_p50_ms > dp2->ttft_p50_ms);
}
