// What a request's sampling parameters do to a row of logits before the token is chosen:
// logit_bias, min_tokens, then the repetition, frequency and presence penalties (vLLM v1's
// order: the processors that can change the argmax, then the penalties).
#pragma once

#include <cstdint>
#include <span>

#include "engine/request/sampling_params.h"

namespace infergate {

// The tokens a row follows: `tokens` is the prompt (its first `num_prompt_tokens`) and the
// output so far; `pending` are output tokens accepted earlier in the same step (speculative
// decoding's drafts before this row), which count as output too.
struct TokenHistory {
  std::span<const int32_t> tokens;
  int num_prompt_tokens = 0;
  std::span<const int32_t> pending = {};

  int num_output_tokens() const {
    return int(tokens.size()) - num_prompt_tokens + int(pending.size());
  }
};

// Applies, in place, to `logits` (one row, vocab-sized):
//   1. logit_bias: logits[id] += bias;
//   2. min_tokens: while fewer than min_tokens output tokens exist, EOS (unless ignore_eos) and
//      every stop_token_id become -inf;
//   3. repetition_penalty r for each distinct token in prompt or output: logit / r when the
//      logit is > 0, logit * r otherwise;
//   4. for each distinct output token with count c: logit -= c * frequency_penalty +
//      presence_penalty.
// Ids outside the row are ignored (SamplingParams::validate(vocab) refuses them earlier).
void apply_logits_processors(std::span<float> logits, const SamplingParams& params,
                             const TokenHistory& history, int32_t eos_token_id);

}  // namespace infergate
