// A trace replayed (docs/workload-schema.md, "Traces"): the records of a timestamped trace
// (trace_reader.h) within a time window, each scheduled at its offset from the window's first
// record divided by the speed-up, with a prompt of its input length and its output length.
// Mooncake's hash ids reproduce its prefix sharing exactly: every hash id stands for one block
// of `block_tokens` tokens drawn from the id alone, so two requests share their leading tokens
// exactly where their hash ids agree. The other formats' prompts are each their own tokens.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/workload/workload.h"

namespace infergate {

// Throws DatasetError for a bad trace, a window with no record, or more prompt tokens than the
// dataset limit; std::invalid_argument for vocab_size < 4.
std::vector<BenchRequest> load_trace_dataset(const std::string& file, const DatasetSpec& spec,
                                             uint64_t seed, int32_t vocab_size);

// Token j of the block hash id `hash_id` stands for (ids in [3, vocab_size)).
int32_t trace_block_token(uint64_t seed, int64_t hash_id, int j, int32_t vocab_size);

}  // namespace infergate
