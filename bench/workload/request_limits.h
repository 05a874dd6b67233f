// What one request and the whole dataset may hold, checked before anything runs: a synthetic
// dataset's longest request must fit the target (the engine's max_model_len: a longer one would
// be cut short and still count as complete), and the dataset's prompts must fit in memory.
#pragma once

#include <string>

#include "bench/workload/workload.h"

namespace infergate {

// The most tokens (prompt + output) one request may have, and what that number is, for
// messages: "the model's max_model_len" or "the limit for echo and openai targets".
struct RequestLimit {
  int max_tokens = 0;
  std::string name;
};

// The limit known without loading the model: the engine's max_model_len when set, else a
// preset's max_position_embeddings; nothing (max_tokens 0) for a model file not yet read.
RequestLimit static_request_limit(const TargetSpec& target);
// The engine target's limit once the model is loaded.
RequestLimit engine_request_limit(const EngineConfig& engine, int model_max_position_embeddings);

// The number of distinct requests the dataset is built with.
int dataset_request_count(const LoadSpec& load);

// Throws WorkloadError (file, JSON path, value, the limit) when the synthetic dataset can make a
// request longer than `limit`, or its prompts or shared prefixes exceed kMaxDatasetTokens.
void check_synthetic_lengths(const Workload& w, const std::string& file, const RequestLimit& limit);

}  // namespace infergate
