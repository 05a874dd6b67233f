// The KV pool's size and the longest sequence, decided together at engine construction: a
// sequence that needs more blocks than the whole pool could never be scheduled, and a pool
// larger than the machine's memory could never be allocated. Both are refused up front, naming
// the numbers and the fixes, as vLLM refuses them at start-up.
#pragma once

#include <cstdint>
#include <string>

#include "engine/core/engine_config.h"
#include "engine/model/model_config.h"

namespace infergate {

struct KvPoolPlan {
  int num_blocks = 0;
  int max_model_len = 0;
  std::string notice;  // set when fit_max_model_len lowered max_model_len: say so
};

// This machine's physical memory in bytes (sysconf); 0 when it cannot be told.
int64_t physical_memory_bytes();

// KV pool bytes: blocks x block_size x layers x kv heads x head_dim x 2 (K and V) x dtype size.
double kv_pool_bytes(const ModelConfig& model, int block_size, DType dtype, int64_t num_blocks);

// Throws std::invalid_argument when the pool exceeds `memory_limit_bytes` (0: no limit; the
// cuda backend's pool lives on the GPU and is not held to it) or cannot hold one max_model_len
// sequence, unless config.fit_max_model_len lowers max_model_len to what it holds.
KvPoolPlan plan_kv_pool(const EngineConfig& config, const ModelConfig& model,
                        int64_t memory_limit_bytes);

}  // namespace infergate
