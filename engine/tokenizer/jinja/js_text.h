// JavaScript's string semantics over UTF-8 text: @huggingface/jinja works on JS strings (UTF-16),
// so lengths and indices count UTF-16 units, whitespace is JS's (\s, trim), comparisons follow
// UTF-16 code units and case mappings are Unicode's full ones. Malformed UTF-8 bytes count as
// one character each and are copied through unchanged.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace infergate::jinja {

struct CodePoint {
  uint32_t cp;  // U+FFFD for a malformed byte
  size_t size;  // bytes it takes
};

// The character starting at byte `pos` < text.size().
CodePoint decode_utf8(std::string_view text, size_t pos);
void append_utf8(std::string& out, uint32_t cp);

// JS WhiteSpace and LineTerminator: what \s, trim() and split() without a separator see.
bool is_js_space(uint32_t cp);
// Bytes of the JS whitespace character at `pos`, or 0 when there is none.
size_t js_space_size(std::string_view text, size_t pos);
// The size of the JS whitespace character ending at byte `end`, or 0.
size_t js_space_size_before(std::string_view text, size_t end);

std::string_view js_trim_start(std::string_view text);
std::string_view js_trim_end(std::string_view text);
std::string_view js_trim(std::string_view text);

// String.prototype.length: UTF-16 code units.
size_t utf16_length(std::string_view text);
// String.prototype.at(index): the UTF-16 unit at `index` (negative counts from the end); half
// of a surrogate pair comes back as U+FFFD, which UTF-8 cannot hold alone.
std::optional<std::string> utf16_at(std::string_view text, double index);
// Array.from(text).length: the characters (code points).
size_t code_point_count(std::string_view text);

// toUpperCase / toLowerCase: Unicode's full, locale-independent mappings (ICU's root locale,
// which V8 uses too).
std::string js_to_upper(std::string_view text);
std::string js_to_lower(std::string_view text);
// @huggingface/jinja's title(): /\b\w/g upper-cased, ASCII word characters only, the rest kept.
std::string js_title(std::string_view text);
// charAt(0).toUpperCase() + slice(1): a first character outside the BMP is left as it is.
std::string js_capitalize(std::string_view text);

// `<` on JS strings: UTF-16 code unit order. Negative, zero or positive.
int js_compare(std::string_view a, std::string_view b);

}  // namespace infergate::jinja
