// Flattens a scheduler decision into the model's batch: token ids, positions, KV slots,
// per-sequence attention ranges and the rows to sample (nano-vllm's prepare_prefill/decode,
// merged into one path because prefill and decode are the same thing here).
#pragma once

#include "engine/core/scheduler.h"
#include "engine/forward/batch_input.h"

namespace infergate {

BatchInput build_batch(const SchedulerOutput& out, int block_size);

}  // namespace infergate
