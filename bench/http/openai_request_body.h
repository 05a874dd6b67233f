// The JSON body the openai target posts for one benchmark request: a streamed completion of
// exactly max_tokens tokens (ignore_eos: benchmarks need fixed output lengths), with usage in
// the last chunk. `completions` sends the prompt's token ids; `chat` sends one user message
// whose text is the ids as ChatPromptText spells them, and max_completion_tokens (OpenAI's
// current name; infergate serve refuses max_tokens and max_completion_tokens together).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bench/http/chat_prompt_text.h"
#include "bench/workload/workload.h"

namespace infergate {

class OpenAiRequestBody {
 public:
  // `api`: "completions" or "chat" (std::invalid_argument otherwise).
  // A sampling other than greedy adds temperature, top_k, top_p and each request's seed.
  OpenAiRequestBody(const std::string& api, const std::string& model, int32_t vocab_size,
                    const SamplingSpec& sampling = {});

  // `index`: the request's index in the load (its seed when sampled).
  std::string operator()(const std::vector<int32_t>& prompt, int max_tokens,
                         uint64_t index = 0) const;

  // "/v1/completions" or "/v1/chat/completions".
  const char* path() const { return chat_ ? "/v1/chat/completions" : "/v1/completions"; }

 private:
  bool chat_;
  std::string model_json_;  // the model name as a JSON string
  std::optional<ChatPromptText> chat_text_;
  SamplingSpec sampling_;
  std::string sampling_json_;  // ,"temperature":...,"top_k":...,"top_p":... or empty
};

}  // namespace infergate
