// How one request wants its tokens chosen and when it stops (OpenAI/vLLM field names).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "engine/grammar/token_grammar.h"

namespace infergate {

struct SamplingParams {
  // Bounds on what a request may ask for; every one is checked before anything is allocated.
  static constexpr int kMaxLogprobs = 20;              // vLLM's default max_logprobs
  static constexpr size_t kMaxLogitBiasIds = 1024;     // entries in logit_bias
  static constexpr float kMaxLogitBias = 100.0f;       // |bias|, OpenAI's range
  static constexpr float kMaxFrequencyPenalty = 2.0f;  // |frequency_penalty|, |presence_penalty|

  float temperature = 0.0f;      // 0: greedy (argmax, ties to the lowest id)
  int top_k = 0;                 // 0: no top-k cut
  float top_p = 1.0f;            // 1: no nucleus cut
  std::optional<uint64_t> seed;  // same seed, same prompt, same tokens
  int max_tokens = 16;
  std::vector<int32_t> stop_token_ids;
  bool ignore_eos = false;  // benchmarks need fixed output lengths

  // Logits processing before the choice (engine/request/logits_processors.h), vLLM's order.
  std::vector<std::pair<int32_t, float>> logit_bias;  // (token id, added to its logit)
  int min_tokens = 0;               // EOS and stop_token_ids are masked until this many are out
  float repetition_penalty = 1.0f;  // > 0; 1: off. Prompt and output tokens
  float frequency_penalty = 0.0f;   // per earlier occurrence in the output
  float presence_penalty = 0.0f;    // once, for a token the output holds

  // Structured output: only tokens this grammar takes, and the end (EOS, stop_token_ids) only
  // where it is complete (engine/grammar/). Null: unconstrained.
  std::shared_ptr<const TokenGrammar> grammar;
  // The prompt's last this-many tokens were generated under `grammar` elsewhere (a stream
  // resumed on another replica): the grammar starts past them.
  int grammar_resumed_tokens = 0;

  // -1: no logprobs. Otherwise each sampled token's logprob under the model's own distribution
  // (log-softmax of the raw logits) and the `logprobs` most likely tokens' (0..kMaxLogprobs).
  int logprobs = -1;

  // Whether the logits must be changed before the choice (bias, masks, penalties).
  bool processes_logits() const;  // also with a grammar
  // Whether sampling needs the logits on the host (processing or logprobs).
  bool needs_host_logits() const { return processes_logits() || logprobs >= 0; }

  // Throws std::invalid_argument naming the field, the value and what is allowed.
  void validate() const;
  // validate(), and every id (logit_bias, stop_token_ids) inside [0, vocab_size).
  void validate(int32_t vocab_size) const;
};

}  // namespace infergate
