// What rank 0 tells the other ranks when an engine starts: where the model comes from (each
// rank loads it and keeps its part) and the engine settings every rank must share.
#pragma once

#include <cstdint>
#include <string>

#include "engine/core/engine_config.h"
#include "engine/model/model_source.h"

namespace infergate {

struct RankSetup {
  ModelSource source;
  EngineConfig config;  // the fields below travel; the rest is rank 0's (the scheduler's)
  int num_kv_blocks = 0;
};

// JSON text with the source and the config fields a worker needs (backend, GEMM, dtypes, block
// size, threads, parallel layout, timeout); decode throws std::runtime_error on anything else.
std::string encode_rank_setup(const RankSetup& setup);
RankSetup decode_rank_setup(const std::string& text);

}  // namespace infergate
