// A step's batch as one array of int64, so rank 0 can broadcast each step's plan to every rank
// (as vLLM's driver worker does) and they run the same batch on their parts of the model.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/forward/batch_input.h"

namespace infergate {

// Each sequence's block table is read up to its context: ceil(context_len / block_size) blocks.
std::vector<int64_t> encode_batch(const BatchInput& batch, int block_size);

// The batch and the block tables its sequences point into (`tables` must outlive the batch).
// Throws std::runtime_error if the array is not a batch encode_batch wrote.
BatchInput decode_batch(const std::vector<int64_t>& encoded, std::vector<int32_t>& tables);

}  // namespace infergate
