// Patterns (pattern, patternProperties): ECMAScript regular expressions matched over code points
// (std::wregex, one code point per wchar_t, so '.' and ranges see characters, not bytes),
// anywhere in the string. std::regex recurses while it compiles and matches, so both the
// pattern and the string it is matched against have a length limit.
#pragma once

#include <cstddef>
#include <regex>
#include <string>
#include <string_view>

namespace infergate::json_schema {

// std::regex matches by recursion, one level per character or more: measured, 8 MB of stack
// overflows at about 10,000 characters for ^(((a|b)c?)d?)*$.
inline constexpr std::size_t kMaxPatternSubjectBytes = 2048;

struct Pattern {
  std::string source;
  std::wregex regex;
};

// Throws JsonSchemaError naming `path` for a pattern too long or no valid regular expression.
Pattern compile_pattern(const std::string& source, const std::string& path);

// Whether `pattern` matches somewhere in `text` (UTF-8; a malformed sequence reads as U+FFFD).
// The caller keeps `text` within kMaxPatternSubjectBytes.
bool pattern_matches(const Pattern& pattern, std::string_view text);

}  // namespace infergate::json_schema
