#include "bench/dataset/dataset.h"

#include <stdexcept>

#include "bench/dataset/jsonl_dataset.h"
#include "bench/dataset/synthetic_dataset.h"
#include "bench/dataset/trace_dataset.h"

namespace infergate {

std::vector<BenchRequest> make_dataset(const DatasetSpec& spec, int count, uint64_t seed,
                                       int32_t vocab_size, const std::string& base_dir,
                                       const DatasetTokenizer* text) {
  if (count < 0) throw std::invalid_argument("dataset: negative request count");
  const uint64_t effective_seed = spec.seed.value_or(seed);
  if (spec.type == "synthetic") {
    return make_synthetic_dataset(spec, count, effective_seed, vocab_size);
  }
  if (spec.type == "jsonl") {
    return load_jsonl_dataset(resolve_dataset_path(spec.path, base_dir), spec.format, count,
                              vocab_size, text);
  }
  if (spec.type == "trace") {  // the trace decides how many
    return load_trace_dataset(resolve_dataset_path(spec.path, base_dir), spec, effective_seed,
                              vocab_size);
  }
  throw std::invalid_argument("dataset.type: unknown type \"" + spec.type +
                              "\" (allowed: synthetic, jsonl, trace)");
}

}  // namespace infergate
