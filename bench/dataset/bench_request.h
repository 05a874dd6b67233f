// One request a run sends: a prompt as token ids and how many tokens to generate.
#pragma once

#include <cstdint>
#include <vector>

namespace infergate {

struct BenchRequest {
  std::vector<int32_t> prompt;  // sent as is (BOS included when the source has one)
  int max_tokens = 0;           // >= 1
  // A replayed trace's request (load.mode "trace"): seconds from the run's start at which it is
  // scheduled; < 0 for every other dataset (the load's arrival process or users decide).
  double arrival_s = -1;
};

}  // namespace infergate
