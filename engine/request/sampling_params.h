// How one request wants its tokens chosen and when it stops (OpenAI/vLLM field names).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace infergate {

struct SamplingParams {
  float temperature = 0.0f;      // 0: greedy (argmax, ties to the lowest id)
  int top_k = 0;                 // 0: no top-k cut
  float top_p = 1.0f;            // 1: no nucleus cut
  std::optional<uint64_t> seed;  // same seed, same prompt, same tokens
  int max_tokens = 16;
  std::vector<int32_t> stop_token_ids;
  bool ignore_eos = false;  // benchmarks need fixed output lengths

  // Throws std::invalid_argument naming the field, the value and what is allowed.
  void validate() const;
};

}  // namespace infergate
