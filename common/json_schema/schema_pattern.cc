// Patterns compiled and matched over code points: UTF-8 text becomes one wchar_t per code point.
#include "common/json_schema/schema_pattern.h"

#include "common/json_schema/schema_messages.h"

namespace infergate::json_schema {
namespace {

// Bounds the regex compiler's own recursion (one level per nested group).
constexpr std::size_t kMaxPatternBytes = 1000;

static_assert(sizeof(wchar_t) == 4, "patterns match over code points, one per wchar_t");

int utf8_sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if ((lead >> 5) == 0x6) return 2;
  if ((lead >> 4) == 0xE) return 3;
  if ((lead >> 3) == 0x1E) return 4;
  return 0;
}

// UTF-8 as one code point per wchar_t; a malformed sequence becomes U+FFFD.
std::wstring utf32(std::string_view text) {
  std::wstring out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const int length = utf8_sequence_length(lead);
    bool whole = length > 0 && i + length <= text.size();
    char32_t code = length == 1 ? lead : lead & (0x7F >> length);
    for (int k = 1; whole && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + k]);
      whole = (next & 0xC0) == 0x80;
      code = (code << 6) | (next & 0x3F);
    }
    out.push_back(whole ? static_cast<wchar_t>(code) : L'\uFFFD');
    i += whole ? length : 1;
  }
  return out;
}

}  // namespace

Pattern compile_pattern(const std::string& source, const std::string& path) {
  if (source.size() > kMaxPatternBytes) {
    refuse(path, "a pattern longer than " + std::to_string(kMaxPatternBytes) + " bytes");
  }
  try {
    return Pattern{source, std::wregex(utf32(source), std::regex::ECMAScript)};
  } catch (const std::regex_error& error) {
    refuse(path, "invalid regular expression " + single_quoted(source) + ": " + error.what());
  }
}

bool pattern_matches(const Pattern& pattern, std::string_view text) {
  return std::regex_search(utf32(text), pattern.regex);
}

}  // namespace infergate::json_schema
