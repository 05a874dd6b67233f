#include "bench/dataset/trace_dataset.h"

#include <cstdio>
#include <iostream>
#include <optional>
#include <stdexcept>

#include "bench/dataset/dataset_error.h"
#include "bench/dataset/trace_reader.h"
#include "bench/workload/workload_limits.h"
#include "common/random/xoshiro256.h"

namespace infergate {

namespace {

constexpr int32_t kBos = 1;
constexpr int32_t kFirstFreeToken = 3;  // never unk, bos or eos

int32_t free_token(uint64_t bits, int32_t vocab_size) {
  return kFirstFreeToken + int32_t(bits % uint64_t(vocab_size - kFirstFreeToken));
}

std::vector<int32_t> block_prompt(const TraceRecord& t, const DatasetSpec& spec, uint64_t seed,
                                  int32_t vocab_size, const std::string& file) {
  const int64_t covered = int64_t(t.hash_ids.size()) * spec.trace.block_tokens;
  if (covered < t.input_tokens) {
    throw DatasetError(file, t.line,
                       "\"hash_ids\": " + std::to_string(t.hash_ids.size()) + " blocks of " +
                           std::to_string(spec.trace.block_tokens) + " tokens cover " +
                           std::to_string(covered) + " tokens, fewer than \"input_length\" " +
                           std::to_string(t.input_tokens) + " (dataset.block_tokens?)");
  }
  std::vector<int32_t> prompt(size_t(t.input_tokens));
  for (int i = 0; i < t.input_tokens; ++i) {
    const int64_t id = t.hash_ids[size_t(i / spec.trace.block_tokens)];
    prompt[size_t(i)] = trace_block_token(seed, id, i % spec.trace.block_tokens, vocab_size);
  }
  return prompt;
}

std::vector<int32_t> own_prompt(const TraceRecord& t, uint64_t seed, uint64_t index,
                                int32_t vocab_size) {
  Xoshiro256 rng(mix64(seed ^ mix64(index)));
  std::vector<int32_t> prompt(size_t(t.input_tokens));
  for (int32_t& id : prompt) id = free_token(rng.next_u64(), vocab_size);
  return prompt;
}

// A replay is a run: held to load.duration_s's limit, so a gap of months in a trace is refused
// up front rather than waited for.
void check_replay_length(double arrival_s, const std::string& file, int line) {
  if (arrival_s <= kMaxDurationS) return;
  char at[32];
  std::snprintf(at, sizeof at, "%.6g", arrival_s);
  throw DatasetError(file, line,
                     std::string("the replay would send this record ") + at +
                         " s after its first: a replay may last at most " +
                         std::to_string(int64_t(kMaxDurationS)) +
                         " s (as load.duration_s); narrow the window with dataset.end_s or "
                         "raise dataset.speedup");
}

}  // namespace

int32_t trace_block_token(uint64_t seed, int64_t hash_id, int j, int32_t vocab_size) {
  return free_token(mix64(mix64(seed ^ mix64(uint64_t(hash_id))) + uint64_t(j)), vocab_size);
}

std::vector<BenchRequest> load_trace_dataset(const std::string& file, const DatasetSpec& spec,
                                             uint64_t seed, int32_t vocab_size) {
  if (vocab_size < 4) throw std::invalid_argument("dataset: vocab_size must be >= 4");
  const TraceSpec& w = spec.trace;
  std::vector<BenchRequest> out;
  std::optional<double> trace_start, window_start;
  int64_t tokens = 0, unusable = 0;
  const TraceReadCounts counts = read_trace(file, spec.format, [&](TraceRecord&& t) {
    if (!trace_start) trace_start = t.timestamp_s;
    const double at = t.timestamp_s - *trace_start;
    if (at < w.start_s) return true;
    if (w.end_s > 0 && at >= w.end_s) return false;
    if (w.max_requests > 0 && int64_t(out.size()) >= w.max_requests) return false;
    if (t.input_tokens == 0 || t.output_tokens == 0) {  // nothing to send or nothing to answer
      ++unusable;
      return true;
    }
    if (!window_start) window_start = at;
    tokens += t.input_tokens;
    if (tokens > kMaxDatasetTokens || int64_t(out.size()) >= kMaxRequests) {
      throw DatasetError(file, t.line,
                         "the window holds more than " + std::to_string(kMaxRequests) +
                             " requests or " + std::to_string(kMaxDatasetTokens) +
                             " prompt tokens (the dataset limits); narrow it with "
                             "dataset.end_s or dataset.max_requests");
    }
    BenchRequest r;
    r.prompt = t.hash_ids.empty() ? own_prompt(t, seed, out.size(), vocab_size)
                                  : block_prompt(t, spec, seed, vocab_size, file);
    r.prompt[0] = kBos;
    r.max_tokens = t.output_tokens;
    r.arrival_s = (at - *window_start) / w.speedup;
    check_replay_length(r.arrival_s, file, t.line);
    out.push_back(std::move(r));
    return true;
  });
  if (out.empty()) {
    throw DatasetError(file, 0,
                       "no request in the window (" + std::to_string(counts.records) +
                           " records read, " + std::to_string(counts.skipped + unusable) +
                           " without a prompt or an answer; dataset.start_s " +
                           std::to_string(w.start_s) + ")");
  }
  if (counts.skipped + unusable > 0) {
    std::cerr << "trace " << file << ": " << counts.skipped + unusable
              << " records without a prompt or an answer were left out\n";
  }
  return out;
}

}  // namespace infergate
