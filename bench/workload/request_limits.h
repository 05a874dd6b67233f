// What one request and the whole dataset may hold, checked before anything runs: a synthetic
// dataset's longest request must fit the target (the engine's max_model_len: a longer one would
// be cut short and still count as complete), and the dataset's prompts must fit in memory.
#pragma once

#include <string>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/dataset/session_dataset.h"
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

// Throws WorkloadError when a session's last turn (every message and answer of it) does not fit
// `limit`.
void check_session_lengths(const std::vector<BenchSession>& sessions, const Workload& w,
                           const RequestLimit& limit);

// Throws WorkloadError naming the first request of a built dataset that does not fit `limit`
// (JSONL datasets, whose lengths are known only once the file is read).
void check_dataset_requests(const std::vector<BenchRequest>& requests, const Workload& w,
                            const RequestLimit& limit);

}  // namespace infergate
