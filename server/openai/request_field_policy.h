// Every request field /v1/completions and /v1/chat/completions know, in one place: supported,
// accepted and ignored (it cannot change the output; a warning goes to the log), or refused
// with the reason. A field not listed is refused as unknown. docs/server.md's field table is
// this list, and a test holds the two equal.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "server/openai/completion_request.h"

namespace infergate {

enum class FieldSupport { kSupported, kIgnored, kRefused };
enum class FieldScope { kBoth, kCompletions, kChat };

struct RequestFieldPolicy {
  std::string_view name;
  FieldScope scope;
  FieldSupport support;
  std::string_view note;  // kRefused: why (the 400's message); kIgnored: what it would do
};

const std::vector<RequestFieldPolicy>& request_field_policies();

// Checks `request`'s keys for `api`: an unknown field, or a refused one whose value is not null,
// throws ApiError 400 naming it; an ignored one is logged (stderr) the first time it is seen.
void check_request_fields(const nlohmann::json& request, ApiKind api);

}  // namespace infergate
