// What must hold of every outcome of a request parser, whatever the body: a refusal is a
// documented 4xx with a message that renders as OpenAI JSON; an accepted request fits the
// served model, holds what the body asked for, and reads the same through /v1/completions when
// rendered back as a body of token ids.
#pragma once

#include <string_view>

#include "common/openai/openai_error.h"
#include "server/openai/completion_request.h"

namespace infergate::fuzz {

// 400, or 404 naming the 'model' field; a message; strict (valid UTF-8) JSON rendering.
void check_refusal(const ApiError& e, std::string_view body);

// For parse_completion_request: the checks every accepted request passes (below), the prompt is
// the body's ids or its tokenized text (only for a model with a tokenizer).
void check_accepted_completion(const CompletionRequest& r, const ServedModel& model,
                               std::string_view body);

// For parse_chat_request: the checks every accepted request passes, the model has a tokenizer
// and the prompt is the ChatML rendering of the body's messages, tokenized; max_tokens is
// max_completion_tokens when that is given.
void check_accepted_chat(const CompletionRequest& r, const ServedModel& model,
                         std::string_view body);

}  // namespace infergate::fuzz
