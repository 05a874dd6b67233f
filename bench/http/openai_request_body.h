// The JSON body the openai target posts for one benchmark request: a streamed completion of
// exactly max_tokens tokens (ignore_eos: benchmarks need fixed output lengths), with usage in
// the last chunk; or, with structured-output requests, their fields instead of ignore_eos (a
// structured answer ends where its structure does, max_tokens its cap). `completions` sends the
// prompt's token ids; `chat` sends one user message whose text is the ids decoded by the server's
// tokenizer when the client knows it (the synthetic byte tokenizer's ids as ChatPromptText spells
// them), and max_completion_tokens (OpenAI's current name; infergate serve refuses max_tokens and
// max_completion_tokens together).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/dataset/dataset_tokenizer.h"
#include "bench/dataset/structured_requests.h"
#include "bench/http/chat_prompt_text.h"
#include "bench/workload/workload.h"

namespace infergate {

class OpenAiRequestBody {
 public:
  // `api`: "completions" or "chat" (std::invalid_argument otherwise).
  // A sampling other than greedy adds temperature, top_k, top_p and each request's seed.
  // `tokenizer`: the server's, when the client knows it (target.tokenizer, a router target's
  // model).
  OpenAiRequestBody(const std::string& api, const std::string& model, int32_t vocab_size,
                    const SamplingSpec& sampling = {},
                    std::optional<DatasetTokenizer> tokenizer = std::nullopt,
                    std::shared_ptr<const StructuredRequests> structured = nullptr,
                    bool constrain = true);

  // `index`: the request's index in the load (its seed when sampled).
  std::string operator()(const std::vector<int32_t>& prompt, int max_tokens,
                         uint64_t index = 0) const;

  // How many prompt tokens the server should report (usage.prompt_tokens): a completion's ids
  // as sent; a chat message through the tokenizer's chat template, as the server renders it.
  // nullopt for chat without a known tokenizer, or when the template refuses the message.
  std::optional<int> prompt_tokens(const std::vector<int32_t>& prompt) const;

  // "/v1/completions" or "/v1/chat/completions".
  const char* path() const { return chat_ ? "/v1/chat/completions" : "/v1/completions"; }

 private:
  bool chat_;
  std::string model_json_;  // the model name as a JSON string
  std::string message_text(const std::vector<int32_t>& prompt) const;

  std::optional<ChatPromptText> chat_text_;    // chat with the synthetic byte tokenizer, or none
  std::optional<DatasetTokenizer> tokenizer_;  // chat: decodes the prompt, counts its tokens
  SamplingSpec sampling_;
  std::string sampling_json_;  // ,"temperature":...,"top_k":...,"top_p":... or empty
  std::shared_ptr<const StructuredRequests> structured_;  // the workload's structured_output
  bool constrain_;  // false: structured requests go without their fields (and ignore_eos)
};

}  // namespace infergate
