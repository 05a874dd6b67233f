// POST /v1/chat/completions: `messages` rendered with the chat template and tokenized, plus the
// fields /v1/completions takes (and `max_completion_tokens`, OpenAI's newer name for
// max_tokens). Needs the model's text tokenizer.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/openai/completion_request.h"

namespace infergate {

// Throws ApiError as parse_completion_request does, and 400 for malformed messages or a model
// without a tokenizer.
CompletionRequest parse_chat_request(std::string_view body, const ServedModel& model);

// The token ids of a request's `messages` (j["messages"]) through the model's chat template (or
// ChatML), as a chat completion prompts with them; /tokenize shares it. Throws ApiError 400.
std::vector<int32_t> chat_prompt_ids(const nlohmann::json& j, const ServedModel& model,
                                     bool add_generation_prompt);

}  // namespace infergate
