#include "common/io/json_text.h"

#include <algorithm>

#include "common/io/json_unique_keys.h"

namespace infergate {

namespace {

// The 1-based line and column of byte `at`, as nlohmann reports them.
std::string position(std::string_view text, size_t at) {
  size_t line = 1, column = 1;
  for (size_t i = 0; i < at && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return "at line " + std::to_string(line) + ", column " + std::to_string(column) +
         " (byte offset " + std::to_string(at) + ")";
}

// The offset of the first bracket that opens level kMaxJsonDepth + 1, or npos. Strings are
// skipped (escapes included) and so are comments, so brackets inside them do not count.
size_t too_deep_at(std::string_view text, bool comments) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) i += text[i] == '\\';
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      i = std::min(text.find('\n', i), text.size());
    } else if (comments && c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = std::min(text.find("*/", i + 2), text.size()) + 1;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::string_view::npos;
}

// nlohmann's message without its "[json.exception.parse_error.101] " id and, for a parse error,
// the "parse error at line 1, column 2: " that position() restates; cut, because its
// "last read: '...'" quotes the whole token, which may be a megabyte string.
std::string reason(const nlohmann::json::exception& e, bool has_position) {
  constexpr size_t kMaxReason = 200;
  std::string r = e.what();
  if (const size_t id_end = r.find("] "); id_end != std::string::npos) r.erase(0, id_end + 2);
  if (const size_t colon = r.find(": "); has_position && colon != std::string::npos) {
    r.erase(0, colon + 2);
  }
  return r.size() <= kMaxReason ? r : r.substr(0, kMaxReason - 3) + "...";
}

}  // namespace

nlohmann::json parse_json_text(std::string_view text, bool ignore_comments, bool unique_keys) {
  if (const size_t at = too_deep_at(text, ignore_comments); at != std::string_view::npos) {
    throw JsonTextError(position(text, at) + ": nests deeper than the limit of " +
                            std::to_string(kMaxJsonDepth) + " levels",
                        at);
  }
  try {
    return nlohmann::json::parse(text, unique_keys ? unique_keys_callback() : nullptr,
                                 /*allow_exceptions=*/true, ignore_comments);
  } catch (const JsonDuplicateKeyError& e) {
    throw JsonTextError(e.what(), 0);
  } catch (const nlohmann::json::parse_error& e) {
    const size_t at = e.byte > 0 ? size_t(e.byte) - 1 : 0;  // nlohmann counts bytes read
    throw JsonTextError(position(text, at) + ": " + reason(e, true), at);
  } catch (const nlohmann::json::exception& e) {  // a number like 1e400 overflows, unplaced
    throw JsonTextError("with " + reason(e, false), 0);
  }
}

}  // namespace infergate
