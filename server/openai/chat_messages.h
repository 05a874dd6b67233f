// A chat request's `messages`, checked and put in the shape chat templates read (as vLLM hands
// them to apply_chat_template): text content (parts joined), an assistant's `tool_calls` with
// their arguments as JSON objects (templates write them with tojson), a tool result's
// `tool_call_id`.
#pragma once

#include <nlohmann/json.hpp>

namespace infergate {

inline constexpr size_t kMaxToolCallsPerMessage = 128;

// Throws ApiError 400 naming the message's field (e.g. "messages[2].tool_calls[0].function").
nlohmann::ordered_json read_chat_messages(const nlohmann::ordered_json& request);

}  // namespace infergate
