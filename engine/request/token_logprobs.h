// Log-probabilities reported with a sampled token (OpenAI's `logprobs`): the model's own
// distribution, log-softmax of the raw logits, before penalties, bias or temperature (vLLM v1's
// default, "raw_logprobs"), so they describe the model, not the request's sampling.
#pragma once

#include <cstdint>
#include <vector>

namespace infergate {

struct TokenLogprob {
  int32_t id = 0;
  float logprob = 0.0f;
};

struct TokenLogprobs {
  float logprob = 0.0f;           // of the sampled token
  std::vector<TokenLogprob> top;  // the most likely tokens, most likely first, ties to lower ids
};

// For `token` on one row of `vocab_size` logits, with the `top_n` most likely tokens. NaN
// logits count as -inf; a row whose logits are all -inf gives every token -inf.
TokenLogprobs token_logprobs(const float* logits, int32_t vocab_size, int32_t token, int top_n);

}  // namespace infergate
