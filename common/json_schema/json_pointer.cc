// JSON Pointer tokens in URI fragments: escaping, decoding, splitting, stepping.
#include "common/json_schema/json_pointer.h"

#include <algorithm>
#include <cstddef>

namespace infergate::json_schema {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The array element a pointer token names: decimal, no leading zero, in range.
std::optional<std::size_t> array_index(const std::string& token, std::size_t size) {
  if (token.empty() || token.size() > 9 || (token.size() > 1 && token[0] == '0') ||
      !std::all_of(token.begin(), token.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  const std::size_t index = std::stoul(token);
  if (index >= size) return std::nullopt;
  return index;
}

}  // namespace

std::string pointer_token(std::string_view key) {
  std::string token;
  for (const char c : key) {
    if (c == '~') {
      token += "~0";
    } else if (c == '/') {
      token += "~1";
    } else {
      token += c;
    }
  }
  return token;
}

std::optional<std::string> percent_decoded(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    const int high = hex_digit(text[i + 1]);
    const int low = hex_digit(text[i + 2]);
    if (high < 0 || low < 0) return std::nullopt;
    out += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return out;
}

std::optional<std::vector<std::string>> pointer_tokens(std::string_view pointer) {
  std::vector<std::string> tokens;
  for (std::size_t i = 0; i < pointer.size(); ++i) {
    if (pointer[i] == '/') {
      tokens.emplace_back();
    } else if (pointer[i] != '~') {
      tokens.back() += pointer[i];
    } else if (i + 1 < pointer.size() && (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
      tokens.back() += pointer[++i] == '0' ? '~' : '/';
    } else {
      return std::nullopt;
    }
  }
  return tokens;
}

const nlohmann::json* step_into(const nlohmann::json& container, const std::string& token) {
  if (container.is_object()) {
    const auto member = container.find(token);
    return member == container.end() ? nullptr : &*member;
  }
  if (!container.is_array()) return nullptr;
  const auto index = array_index(token, container.size());
  return index ? &container[*index] : nullptr;
}

}  // namespace infergate::json_schema
