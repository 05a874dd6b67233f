// JSON Pointers (RFC 6901) as $ref writes them in a URI fragment ("#/$defs/a~1b/0"): escaping
// one reference token, decoding the fragment's %XX escapes, splitting a pointer into tokens and
// stepping from a value into the member or item a token names.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace infergate::json_schema {

// One reference token escaped: '~' as "~0", '/' as "~1".
std::string pointer_token(std::string_view key);

// A URI fragment's %XX escapes decoded; nullopt for a malformed escape.
std::optional<std::string> percent_decoded(std::string_view text);

// "/a~1b/0" (empty, or starting with '/') as {"a/b", "0"}; nullopt for a '~' not followed by
// 0 or 1.
std::optional<std::vector<std::string>> pointer_tokens(std::string_view pointer);

// The member of an object, or the item of an array (decimal, no leading zero, in range), that
// `token` names; nullptr where there is none.
const nlohmann::json* step_into(const nlohmann::json& container, const std::string& token);

}  // namespace infergate::json_schema
