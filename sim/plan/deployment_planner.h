// `infergate plan` (docs/simulator.md, "The planner"): every layout of a model on N devices of
// named hardware (tensor, pipeline, expert and data parallelism, prefill/decode splits of the
// replicas, weight and KV formats) checked against one device's memory, each that fits
// simulated on the user's workload (replicas behind the simulated router), and all ranked by
// goodput at the SLO, then cost; the rejected ones say why in numbers.
#pragma once

#include <string>
#include <vector>

#include "sim/memory_plan.h"

namespace infergate {

struct PlanRequest {
  std::string workload;                // a workload file (its dataset, load and SLO)
  std::vector<std::string> overrides;  // --set on it, first
  std::string model, hardware, calibration;
  int gpus = 1;
  std::vector<std::string>
      weight_dtypes;  // empty: the model's, fp8 and w8a8 where the device has them, q4_0
  std::vector<std::string> kv_dtypes;  // empty: 16-bit and fp8_e4m3
  double memory_utilization = 0.9;
  double price_per_gpu_hour = 0;  // 0: no cost column
  std::string out_dir;            // each simulated layout's results file
};

struct PlanCandidate {
  // data_parallel: engines of this layout behind the router; prefill_replicas of them prefill
  // and the rest decode when disaggregated (0: every one serves both).
  int tensor_parallel = 1, pipeline_parallel = 1, expert_parallel = 1, data_parallel = 1;
  int prefill_replicas = 0;
  std::string weight_dtype, kv_dtype;
  std::string rejected;  // why it was not simulated or failed; empty when it ran
  DeviceMemoryPlan memory;
  double goodput_rps = 0, request_rps = 0, output_tps = 0;
  double ttft_p50_ms = 0, ttft_p95_ms = 0, tpot_p50_ms = 0, tpot_p95_ms = 0;
  double cost_per_million_tokens = 0;  // with a price: GPU-hours per million output tokens x price
  std::string results_path;

  // "TP2 PP1 EP1 DP1 w8a8 KV fp8_e4m3"; disaggregated, "TP2 PP1 EP1 P1:D3 ...".
  std::string label() const;
};

struct Plan {
  std::vector<PlanCandidate> ranked;    // by goodput (desc), then cost, then headroom
  std::vector<PlanCandidate> rejected;  // in enumeration order
  std::vector<std::string> notes;       // what the plan left out and why
};

// Throws std::invalid_argument for bad requests (an unknown model or hardware, a workload with a
// sweep, gpus out of range).
Plan plan_deployment(const PlanRequest& request);

}  // namespace infergate
