#include "engine/tokenizer/jinja/js_text.h"

#include <unicode/locid.h>
#include <unicode/unistr.h>

#include <algorithm>
#include <cmath>
#include <iterator>

namespace infergate::jinja {
namespace {

constexpr uint32_t kReplacement = 0xFFFD;

bool is_ascii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return (c & 0x80) == 0; });
}

bool is_ascii_word(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

char ascii_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 32) : c; }
char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c + 32) : c; }

// A UTF-16 sort key of a code point's first unit: astral characters sort by their high
// surrogate, which is below U+E000..U+FFFF.
uint32_t first_unit(uint32_t cp) { return cp < 0x10000 ? cp : 0xD800 + ((cp - 0x10000) >> 10); }
uint32_t second_unit(uint32_t cp) { return 0xDC00 + ((cp - 0x10000) & 0x3FF); }

icu::UnicodeString to_icu(std::string_view text) {
  return icu::UnicodeString::fromUTF8(
      icu::StringPiece(text.data(), static_cast<int32_t>(text.size())));
}

std::string from_icu(const icu::UnicodeString& text) {
  std::string out;
  text.toUTF8String(out);
  return out;
}

}  // namespace

CodePoint decode_utf8(std::string_view text, size_t pos) {
  const auto lead = static_cast<unsigned char>(text[pos]);
  if (lead < 0x80) return {lead, 1};
  size_t size = 0;
  uint32_t cp = 0;
  uint32_t min = 0;
  if ((lead & 0xE0) == 0xC0) {
    size = 2, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    size = 3, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    size = 4, cp = lead & 0x07, min = 0x10000;
  } else {
    return {kReplacement, 1};
  }
  if (pos + size > text.size()) return {kReplacement, 1};
  for (size_t i = 1; i < size; ++i) {
    const auto byte = static_cast<unsigned char>(text[pos + i]);
    if ((byte & 0xC0) != 0x80) return {kReplacement, 1};
    cp = (cp << 6) | (byte & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return {kReplacement, 1};
  return {cp, size};
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_js_space(uint32_t cp) {
  // WhiteSpace (TAB, VT, FF, SP, NBSP, BOM and the Zs category) and LineTerminator.
  static constexpr uint32_t kSpaces[] = {0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x20,   0xA0,
                                         0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF};
  if (cp >= 0x2000 && cp <= 0x200A) return true;
  return std::find(std::begin(kSpaces), std::end(kSpaces), cp) != std::end(kSpaces);
}

size_t js_space_size(std::string_view text, size_t pos) {
  if (pos >= text.size()) return 0;
  const CodePoint c = decode_utf8(text, pos);
  // A malformed byte decodes to U+FFFD, which is no space.
  return is_js_space(c.cp) ? c.size : 0;
}

size_t js_space_size_before(std::string_view text, size_t end) {
  // Spaces are 1 to 3 bytes long; try each start.
  for (size_t size = 1; size <= 3 && size <= end; ++size) {
    const size_t start = end - size;
    if (size > 1 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) continue;
    if (js_space_size(text, start) == size) return size;
  }
  return 0;
}

std::string_view js_trim_start(std::string_view text) {
  size_t pos = 0;
  while (size_t size = js_space_size(text, pos)) pos += size;
  return text.substr(pos);
}

std::string_view js_trim_end(std::string_view text) {
  size_t end = text.size();
  while (size_t size = js_space_size_before(text, end)) end -= size;
  return text.substr(0, end);
}

std::string_view js_trim(std::string_view text) { return js_trim_end(js_trim_start(text)); }

size_t utf16_length(std::string_view text) {
  size_t units = 0;
  for (size_t pos = 0; pos < text.size();) {
    const CodePoint c = decode_utf8(text, pos);
    units += c.cp >= 0x10000 ? 2 : 1;
    pos += c.size;
  }
  return units;
}

std::optional<std::string> utf16_at(std::string_view text, double index) {
  if (std::isnan(index)) index = 0;
  index = std::trunc(index);
  if (index < 0) index += static_cast<double>(utf16_length(text));
  if (index < 0) return std::nullopt;
  double unit = 0;
  for (size_t pos = 0; pos < text.size();) {
    const CodePoint c = decode_utf8(text, pos);
    const double units = c.cp >= 0x10000 ? 2 : 1;
    if (index < unit + units) {
      if (units == 2) return std::string("\xEF\xBF\xBD");
      return std::string(text.substr(pos, c.size));
    }
    unit += units;
    pos += c.size;
  }
  return std::nullopt;
}

size_t code_point_count(std::string_view text) {
  size_t count = 0;
  for (size_t pos = 0; pos < text.size(); pos += decode_utf8(text, pos).size) ++count;
  return count;
}

std::string js_to_upper(std::string_view text) {
  if (is_ascii(text)) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), ascii_upper);
    return out;
  }
  return from_icu(to_icu(text).toUpper(icu::Locale::getRoot()));
}

std::string js_to_lower(std::string_view text) {
  if (is_ascii(text)) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(), ascii_lower);
    return out;
  }
  return from_icu(to_icu(text).toLower(icu::Locale::getRoot()));
}

std::string js_title(std::string_view text) {
  std::string out(text);
  for (size_t i = 0; i < out.size(); ++i) {
    const bool starts_word = is_ascii_word(static_cast<unsigned char>(out[i])) &&
                             (i == 0 || !is_ascii_word(static_cast<unsigned char>(out[i - 1])));
    if (starts_word) out[i] = ascii_upper(out[i]);
  }
  return out;
}

std::string js_capitalize(std::string_view text) {
  if (text.empty()) return "";
  const CodePoint first = decode_utf8(text, 0);
  if (first.cp >= 0x10000) return std::string(text);
  return js_to_upper(text.substr(0, first.size)) + std::string(text.substr(first.size));
}

int js_compare(std::string_view a, std::string_view b) {
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const CodePoint x = decode_utf8(a, i);
    const CodePoint y = decode_utf8(b, j);
    if (x.cp != y.cp) {
      const uint32_t ux = first_unit(x.cp);
      const uint32_t uy = first_unit(y.cp);
      if (ux != uy) return ux < uy ? -1 : 1;
      return second_unit(x.cp) < second_unit(y.cp) ? -1 : 1;  // both astral, same high half
    }
    i += x.size;
    j += y.size;
  }
  if (i < a.size()) return 1;
  if (j < b.size()) return -1;
  return 0;
}

}  // namespace infergate::jinja
