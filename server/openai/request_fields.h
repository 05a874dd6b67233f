// The fields /v1/completions and /v1/chat/completions share (model, sampling, stop, stream),
// read from a parsed body with the checks and messages both endpoints give.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/openai/openai_error.h"
#include "server/openai/completion_request.h"

namespace infergate {

// Parses `body` as a JSON object whose keys `api` takes (request_field_policy.h; ApiError 400
// otherwise), and checks `model` (404 for another model's name).
nlohmann::json parse_request_object(std::string_view body, ApiKind api, const ServedModel& model);
// The same for an endpoint of infergate's own, whose keys are `known`.
nlohmann::json parse_request_object(std::string_view body, const std::set<std::string>& known,
                                    const ServedModel& model);

// Reads the shared fields into `r` (r.prompt must be set: the length checks need it), then
// checks that prompt + max_tokens fit the model and the sampling parameters are valid.
// `body` is j's text, read again for a structured-output schema's property order.
void read_shared_fields(const nlohmann::json& j, std::string_view body, const ServedModel& model,
                        CompletionRequest& r);

// Token ids at `field`, each in [0, vocab_size).
std::vector<int32_t> read_token_ids(const nlohmann::json& v, const std::string& field,
                                    int32_t vocab_size);

inline ApiError bad_field(const std::string& field, const std::string& message) {
  return ApiError(400, message, field);
}

}  // namespace infergate
