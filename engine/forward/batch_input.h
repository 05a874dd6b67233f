// One step's work, flattened: every scheduled token of every sequence in one row-major batch
// (no padding), plus what attention and the LM head need to find their rows.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/cpu/paged_attention.h"

namespace infergate {

struct BatchInput {
  std::vector<int32_t> token_ids;     // [num_tokens]
  std::vector<int32_t> positions;     // [num_tokens]
  std::vector<int64_t> slot_mapping;  // [num_tokens] KV slot each token writes
  std::vector<AttentionSequence> sequences;
  std::vector<int64_t> logits_rows;  // rows whose next-token logits are wanted

  int64_t num_tokens() const { return int64_t(token_ids.size()); }
};

}  // namespace infergate
