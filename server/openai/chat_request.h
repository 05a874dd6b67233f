// POST /v1/chat/completions: `messages` (and `tools`) rendered with the chat template and
// tokenized, plus the fields /v1/completions takes (and `max_completion_tokens`, OpenAI's newer
// name for max_tokens). Needs the model's text tokenizer.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/openai/completion_request.h"

namespace infergate {

// Throws ApiError as parse_completion_request does, and 400 for malformed messages or tools, or
// a model without a tokenizer.
CompletionRequest parse_chat_request(std::string_view body, const ServedModel& model);

// The request body as the chat template reads it: keys in the order sent (a template writes
// tools and call arguments with tojson) where the body has tools or tool calls.
nlohmann::ordered_json chat_request_object(const nlohmann::json& j, std::string_view body);

// The token ids of a request's `messages` and `tools` (null: none) through the model's chat
// template (or ChatML), as a chat completion prompts with them; /tokenize shares it. Throws
// ApiError 400.
std::vector<int32_t> chat_prompt_ids(const nlohmann::ordered_json& request,
                                     const ServedModel& model, bool add_generation_prompt,
                                     const nlohmann::ordered_json& tools);

}  // namespace infergate
