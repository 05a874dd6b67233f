// The token ids a chat conversation becomes, as a server's /v1/chat/completions computes them
// and as a client that wants the same count must: the template's text, encoded with the
// tokenizer's special tokens only where the template does not write its own (ChatML).
#pragma once

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/chat_template.h"
#include "engine/tokenizer/tokenizer.h"

namespace infergate {

// `add_bos`: whether the tokenizer's plain prompts start with BOS. Throws jinja::TemplateError
// when the template refuses the conversation (raise_exception, a limit).
std::vector<int32_t> chat_prompt_ids(const Tokenizer& tokenizer, bool add_bos,
                                     const ChatTemplate& chat,
                                     const std::vector<ChatMessage>& messages,
                                     bool add_generation_prompt);
// OpenAI-style message objects (tool calls included) and the request's tools (null for none).
std::vector<int32_t> chat_prompt_ids(const Tokenizer& tokenizer, bool add_bos,
                                     const ChatTemplate& chat,
                                     const nlohmann::ordered_json& messages,
                                     bool add_generation_prompt,
                                     const nlohmann::ordered_json& tools);

}  // namespace infergate
