// POST /tokenize and /detokenize, as vLLM's server has them, for a client checking its token
// counts against the server's: /tokenize takes {"prompt": TEXT, "add_special_tokens"} or
// {"messages": [...], "add_generation_prompt"} (through the chat template, as a chat
// completion) and answers {"count", "max_model_len", "tokens"}; /detokenize takes {"tokens"}
// and answers {"prompt"}.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "server/openai/completion_request.h"

namespace infergate {

// Throw ApiError 400 naming the field (404 for another model's name), as the completions do.
nlohmann::json answer_tokenize(std::string_view body, const ServedModel& model);
nlohmann::json answer_detokenize(std::string_view body, const ServedModel& model);

}  // namespace infergate
