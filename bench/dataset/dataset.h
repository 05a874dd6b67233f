// The requests a run sends, from a workload's dataset section.
// Sources and their formats: docs/metrics.md, "Datasets".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/dataset/dataset_tokenizer.h"
#include "bench/workload/workload.h"

namespace infergate {

// `count` requests from spec.type: "synthetic" (sampled from the length distributions) or
// "jsonl" (a file, spec.path resolved against base_dir unless absolute); "trace" gives the
// trace's own requests in its window, each with its arrival_s (count is not used). The seed is
// spec.seed when set, else `seed` (the workload seed); same spec and seed give the same requests.
// Throws std::invalid_argument for a spec that cannot be built (unknown type or format, bad
// distribution, vocab_size too small) and DatasetError for a bad file. `text` tokenizes text and
// ShareGPT records (the target model's own, dataset_tokenizer.h); null: the byte tokenizer over
// synthetic_vocabulary(vocab_size).
std::vector<BenchRequest> make_dataset(const DatasetSpec& spec, int count, uint64_t seed,
                                       int32_t vocab_size, const std::string& base_dir,
                                       const DatasetTokenizer* text = nullptr);

}  // namespace infergate
