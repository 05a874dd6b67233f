// The requests the engine benchmarks feed it (engine_bench.cc,
// bench/programs/llama_cpp/engine_speed.cc): prompts of distinct token ids that never share a
// prefix between salts, the same ids llama_cpp_speed.mjs gives llama.cpp, and greedy sampling of a
// fixed length.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/core/engine.h"
#include "engine/request/sampling_params.h"

namespace infergate::bench {

// Ids in [3, 31003), below `vocab_size` for a smaller vocabulary (the trained models' 4,096).
inline std::vector<int32_t> distinct_prompt(int length, int salt, int vocab_size = 31003) {
  const int span = vocab_size < 31003 ? vocab_size - 3 : 31000;
  std::vector<int32_t> p;
  for (int i = 0; i < length; ++i) p.push_back(3 + (i * 131 + salt * 977) % span);
  return p;
}

// Greedy, exactly `tokens` tokens (end-of-sequence ignored).
inline SamplingParams fixed_length(int tokens) {
  SamplingParams s;
  s.max_tokens = tokens;
  s.ignore_eos = true;
  return s;
}

// Steps until every one of `count` requests has its first token (prefill done).
inline void finish_prefill(Engine& engine, int count) {
  int started = 0;
  while (started < count) {
    for (const RequestOutput& out : engine.step()) {
      if (out.num_output_tokens == int(out.token_ids.size()) && !out.token_ids.empty()) ++started;
    }
  }
}

}  // namespace infergate::bench
