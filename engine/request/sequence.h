// One request's life inside the engine. Like vLLM v1 there is no prefill or decode phase:
// num_computed_tokens catches up with tokens.size(), whatever the reason it lags (a new
// prompt, a chunk, a prefix-cache hit, a preemption by recompute, a fresh sampled token).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/request/sampler.h"
#include "engine/request/sampling_params.h"
#include "engine/request/token_logprobs.h"

namespace infergate {

using RequestId = std::string;

enum class SequenceStatus { kWaiting, kRunning, kFinished };

// kError: the engine could never serve the request (Sequence::error says why), vLLM's "error".
enum class FinishReason { kNone, kLength, kStop, kAbort, kError };

const char* finish_reason_name(FinishReason reason);

struct Sequence {
  Sequence(RequestId request_id, std::vector<int32_t> prompt, SamplingParams sampling,
           uint64_t rng_seed, int64_t arrival)
      : id(std::move(request_id)),
        tokens(std::move(prompt)),
        num_prompt_tokens(int(tokens.size())),
        params(std::move(sampling)),
        rng(rng_seed),
        draft_rng(rng_seed ^ 0xd1b54a32d192ed03ULL),
        arrival_ns(arrival) {}

  RequestId id;
  std::vector<int32_t> tokens;  // prompt followed by generated tokens
  // Speculative decoding: tokens proposed to follow `tokens`, verified by the next step that
  // decodes the sequence (not part of `tokens` until accepted).
  std::vector<int32_t> draft_tokens;
  // A draft model's proposal distribution q for each draft token ([draft_tokens.size(), vocab]
  // row-major), which rejection sampling needs; empty when each draft is a single token (n-gram)
  // or the request is greedy.
  std::vector<float> draft_probs;
  // The drafts are the grammar's forced tokens (jump-forward), not a speculator's proposal.
  bool drafts_from_grammar = false;
  // With params.logprobs >= 0: the logprobs of the tokens sampled in the current step, in order
  // (the engine hands those the scheduler kept to the step's output).
  std::vector<TokenLogprobs> step_logprobs;
  // With params.grammar: where the output so far stands in it.
  std::optional<GrammarMatcher> grammar_state;
  int proposal_length = 0;  // speculative.adaptive: tokens to propose next (0: not adapted yet)
  int num_prompt_tokens;
  int num_computed_tokens = 0;  // tokens whose KV is in the cache
  std::vector<int32_t> block_table;
  // Chained hashes of the full computed blocks (each over its tokens and its parent's hash),
  // filled only with prefix caching; kept across preemption, since the tokens do not change.
  std::vector<uint64_t> block_hashes;
  int num_cached_blocks = 0;  // leading block_table entries in the prefix cache
  SamplingParams params;
  Xoshiro256 rng;
  // A draft model's draws: a stream of its own, so the target's verification draws (`rng`) are
  // the same whatever the draft did, and a seed still reproduces the request.
  Xoshiro256 draft_rng;
  SequenceStatus status = SequenceStatus::kWaiting;
  FinishReason finish_reason = FinishReason::kNone;
  std::string error;  // with FinishReason::kError
  // Prefix-cache hit at the first admission; a readmission after preemption leaves it alone.
  int num_cached_prompt_tokens = 0;
  int num_preemptions = 0;
  int64_t arrival_ns;

  int num_tokens() const { return int(tokens.size()); }
  int num_output_tokens() const { return num_tokens() - num_prompt_tokens; }
  int num_uncomputed_tokens() const { return num_tokens() - num_computed_tokens; }
  void clear_drafts() {
    draft_tokens.clear();
    draft_probs.clear();
    drafts_from_grammar = false;
  }
};

}  // namespace infergate
