// A choice's `logprobs` in OpenAI's two shapes. Completions: {"tokens", "token_logprobs",
// "top_logprobs" (the alternatives and the sampled token, as vLLM gives them), "text_offset"}.
// Chat: {"content": [{"token", "logprob", "bytes", "top_logprobs": [...]}]}. A token is its
// text; a model without a text tokenizer names it "token_id:<id>" (vLLM's
// return_tokens_as_token_ids spelling).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/request/token_logprobs.h"
#include "engine/tokenizer/tokenizer.h"
#include "server/openai/completion_request.h"

namespace infergate {

class LogprobsRenderer {
 public:
  // `text_offset`: where the completion's text starts in the choice's text (after an echoed
  // prompt); `tokenizer` may be null.
  LogprobsRenderer(ApiKind api, const Tokenizer* tokenizer, size_t text_offset);

  // The logprobs of `ids` (one TokenLogprobs each), the next tokens of this choice: a stream
  // calls it once per chunk, and completions' text_offset goes on counting.
  nlohmann::json render(const std::vector<int32_t>& ids,
                        const std::vector<TokenLogprobs>& logprobs);

 private:
  std::string token_text(int32_t id) const;
  nlohmann::json completions_shape(const std::vector<int32_t>& ids,
                                   const std::vector<TokenLogprobs>& logprobs);
  nlohmann::json chat_entry(int32_t id, float logprob) const;

  ApiKind api_;
  const Tokenizer* tokenizer_;
  size_t text_offset_;
};

}  // namespace infergate
