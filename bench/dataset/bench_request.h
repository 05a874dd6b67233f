// One request a run sends: a prompt as token ids and how many tokens to generate.
#pragma once

#include <cstdint>
#include <vector>

namespace infergate {

struct BenchRequest {
  std::vector<int32_t> prompt;  // sent as is (BOS included when the source has one)
  int max_tokens = 0;           // >= 1
};

}  // namespace infergate
