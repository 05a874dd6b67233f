// Message text shared by the schema compiler and the value checker.
#include "common/json_schema/schema_messages.h"

#include <algorithm>
#include <cctype>

#include "common/json_schema/json_schema_validator.h"

namespace infergate::json_schema {
namespace {

using Json = nlohmann::json;

constexpr std::size_t kExcerptBytes = 60;

bool is_plain_key(std::string_view key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return std::isalnum(byte) || c == '_' || c == '-' || c == '$' || byte >= 0x80;
  });
}

}  // namespace

void refuse(const std::string& path, const std::string& why) {
  throw JsonSchemaError(path + ": " + why);
}

std::string excerpt(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() <= kExcerptBytes) return text;
  std::size_t end = kExcerptBytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "...";
}

std::string single_quoted(std::string_view name) { return "'" + std::string(name) + "'"; }

std::string member_path(const std::string& base, std::string_view key) {
  if (is_plain_key(key)) return base + "." + std::string(key);
  return base + "[" + Json(std::string(key)).dump(-1, ' ', false, Json::error_handler_t::replace) +
         "]";
}

std::string index_path(const std::string& base, std::size_t index) {
  return base + "[" + std::to_string(index) + "]";
}

std::string plural(std::size_t count, const std::string& noun) {
  std::string text = std::to_string(count) + " " + noun;
  if (count == 1) return text;
  if (!noun.ends_with("y")) return text + "s";
  text.pop_back();
  return text + "ies";
}

}  // namespace infergate::json_schema
