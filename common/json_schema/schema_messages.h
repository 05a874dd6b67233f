// The text of messages, for refused schemas and for problems with values: excerpts of values,
// paths ("schema.properties.age", "value.tags[2]"), plurals; refuse() throws JsonSchemaError.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace infergate::json_schema {

// Throws JsonSchemaError "path: why".
[[noreturn]] void refuse(const std::string& path, const std::string& why);

// A value as compact JSON text, cut at a code point boundary after 60 bytes ("...").
std::string excerpt(const nlohmann::json& value);

// 'name'.
std::string single_quoted(std::string_view name);

// "base.key", or "base[\"odd key\"]" for a key that is not plain letters, digits, '_', '-', '$'
// and non-ASCII, so a key holding '.' or ' ' stays unambiguous.
std::string member_path(const std::string& base, std::string_view key);

// "base[index]".
std::string index_path(const std::string& base, std::size_t index);

// "1 item", "2 items"; "2 properties".
std::string plural(std::size_t count, const std::string& noun);

}  // namespace infergate::json_schema
