// Parsing JSON text from a file we do not trust: nesting is bounded before nlohmann::json builds
// anything, because its copy, comparison and dump() recurse once per level and 100,000 nested
// arrays would overflow the stack far from the parse; errors carry the parse position.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace infergate {

// Far beyond the nesting of any file infergate reads (results: about 10), far below what the
// recursive parts of nlohmann::json survive.
inline constexpr int kMaxJsonDepth = 128;

// Text that is not JSON, or nests too deep. what() has no file name (callers add theirs):
// "at line 3, column 7 (byte offset 41): syntax error while parsing value - ...".
class JsonTextError : public std::runtime_error {
 public:
  JsonTextError(const std::string& what, uint64_t byte) : std::runtime_error(what), byte_(byte) {}
  uint64_t byte() const { return byte_; }

 private:
  uint64_t byte_;
};

// Parses `text` (with `ignore_comments`, // and /* */ comments are allowed); throws
// JsonTextError for a syntax error or nesting deeper than kMaxJsonDepth, and, with
// `unique_keys`, for an object that has a key twice (rather than the last one winning).
nlohmann::json parse_json_text(std::string_view text, bool ignore_comments = false,
                               bool unique_keys = false);

}  // namespace infergate
