// A JSON value rendered for an error message: compact like dump(), but cut at a length limit
// and built without recursion, so an untrusted value (100,000 nested arrays, a 1 MB string)
// costs O(limit) time and stack, never a crash. Shared by the workload parser, the engine's
// model readers and the results readers (it lives in infergate_results, which the engine links).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace infergate {

// The default length of an excerpt, in characters, "..." included.
inline constexpr size_t kJsonExcerptChars = 60;

// `value` as dump() writes it when that fits in `max_chars`; otherwise its first
// max_chars - 3 characters and "...". Nesting is walked with a heap stack whose depth is at
// most `max_chars` (each level writes one bracket), and strings are cut before they are
// escaped; invalid UTF-8 is written as U+FFFD rather than throwing.
std::string json_excerpt(const nlohmann::json& value, size_t max_chars = kJsonExcerptChars);

// A name from input (a field, a model, a key) to quote in a message: `text` when it fits in
// `max_chars`, otherwise its first characters (cut on a UTF-8 character boundary) and "...", so
// a 500 KB field name does not come back whole in an error body.
std::string text_excerpt(std::string_view text, size_t max_chars = kJsonExcerptChars);

}  // namespace infergate
