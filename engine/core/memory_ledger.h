// Bytes the engine holds, by category: what "peak memory" in a results file is made of.
#pragma once

#include <cstddef>

namespace infergate {

struct MemoryLedger {
  size_t weights_bytes = 0;
  size_t kv_cache_bytes = 0;
  size_t workspace_bytes = 0;  // activation scratch buffers (grow to the largest batch)

  size_t total() const { return weights_bytes + kv_cache_bytes + workspace_bytes; }
};

}  // namespace infergate
