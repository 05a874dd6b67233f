// The memory ledger of one device of a simulated deployment: its share of the weights, the
// workspace a step needs, and the KV pool that fits in the rest (as vLLM sizes its pool from
// gpu_memory_utilization). Why a layout does not fit is said in numbers.
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/model_config.h"
#include "sim/hardware_spec.h"
#include "sim/precision.h"
#include "sim/step_cost_model.h"

namespace infergate {

struct DeviceMemoryPlan {
  double capacity_bytes = 0;      // memory x utilization
  double weights_bytes = 0;       // the largest stage's share
  double workspace_bytes = 0;     // reserved + activations of the largest step
  double kv_bytes_per_token = 0;  // this device's share of one token's KV
  double kv_bytes = 0;            // the pool
  int64_t kv_blocks = 0;
  bool fits = false;
  std::string reason;  // when it does not: "bf16 weights: 70.6 GB > ..."

  double headroom_bytes() const { return capacity_bytes - weights_bytes - workspace_bytes; }
};

// Parameters of the largest pipeline stage on one device of the group (embeddings on the first
// stage, the LM head on the last; attention and dense FFN split by tensor parallelism, experts
// by expert parallelism or tensor parallelism).
double device_weight_parameters(const ModelConfig& model, const SimLayout& layout,
                                const std::vector<int>& stage_layers);

// `max_num_batched_tokens`: the largest step's tokens, for its activations.
DeviceMemoryPlan plan_device_memory(const ModelConfig& model, const HardwareSpec& hardware,
                                    const SimLayout& layout, const std::vector<int>& stage_layers,
                                    const Precision& precision, int block_size,
                                    int max_num_batched_tokens, double memory_utilization);

// Bytes as "70.6 GB" (decimal, as datasheets give memory and the questions ask).
std::string gigabytes_text(double bytes);

}  // namespace infergate
