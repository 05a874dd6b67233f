// Requests with random prompts whose lengths follow the spec's distributions.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/dataset/dataset.h"

namespace infergate {

// Each prompt starts with BOS (id 1), the rest uniform in [3, vocab_size) (never unk, bos or
// eos), and is exactly its sampled input length long. With shared prefixes, num_prefixes
// distinct random prefixes of prefix_tokens tokens (each starting with BOS) are drawn first; a
// request uses one, chosen uniformly, with probability `fraction`, and its prompt is that prefix
// followed by its sampled input length of fresh tokens. Lengths, prefix choices and token ids
// come from separate sub-streams of `seed`, so e.g. changing the prefix fraction leaves every
// request's lengths unchanged. Throws std::invalid_argument for a bad spec or vocab_size < 4.
std::vector<BenchRequest> make_synthetic_dataset(const DatasetSpec& spec, int count, uint64_t seed,
                                                 int32_t vocab_size);

}  // namespace infergate
