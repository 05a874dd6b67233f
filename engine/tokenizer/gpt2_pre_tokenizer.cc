#include "engine/tokenizer/gpt2_pre_tokenizer.h"

#include <cstdint>

#include "engine/tokenizer/unicode_class.h"
#include "engine/tokenizer/utf8.h"

namespace infergate {

namespace {

constexpr uint32_t kEnd = 0xFFFFFFFF;  // past the last character

struct Char {
  uint32_t cp;
  size_t offset;  // in bytes
  UnicodeClass cls;
};

}  // namespace

std::vector<std::string> gpt2_pre_tokenize(std::string_view text) {
  std::vector<Char> chars;
  for (size_t pos = 0; pos < text.size();) {
    const Utf8Char c = utf8_next(text, pos);
    chars.push_back({c.cp, pos, unicode_class(c.cp)});
    pos += c.size;
  }
  const size_t n = chars.size();
  auto cp = [&](size_t i) { return i < n ? chars[i].cp : kEnd; };
  auto is = [&](size_t i, UnicodeClass cls) { return i < n && chars[i].cls == cls; };
  auto offset = [&](size_t i) { return i < n ? chars[i].offset : text.size(); };

  std::vector<std::string> words;
  size_t start = 0;  // first character of the word being matched
  auto emit = [&](size_t end) {
    words.emplace_back(text.substr(offset(start), offset(end) - offset(start)));
    start = end;
  };
  while (start < n) {
    size_t pos = start;
    // 's|'t|'re|'ve|'m|'ll|'d (lower case only, as in GPT-2)
    if (cp(pos) == '\'') {
      const uint32_t a = cp(pos + 1);
      const uint32_t b = cp(pos + 2);
      if (a == 's' || a == 't' || a == 'm' || a == 'd') {
        emit(pos + 2);
        continue;
      }
      if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) {
        emit(pos + 3);
        continue;
      }
    }
    // An optional leading space joins the letters, numbers or other symbols after it.
    const size_t body = cp(pos) == ' ' ? pos + 1 : pos;
    const bool letter = is(body, UnicodeClass::kLetter);
    const bool number = is(body, UnicodeClass::kNumber);
    const bool other = is(body, UnicodeClass::kOther);
    if (letter || number || other) {
      const UnicodeClass cls = chars[body].cls;
      pos = body;
      while (is(pos, cls)) ++pos;
      emit(pos);
      continue;
    }
    // \s+(?!\S): a run of whitespace, less its last character when text follows; \s+ at the end.
    size_t spaces = 0;
    while (is(pos + spaces, UnicodeClass::kWhitespace)) ++spaces;
    if (spaces > 1 && pos + spaces < n) {
      emit(pos + spaces - 1);
    } else {
      emit(pos + (spaces > 0 ? spaces : 1));
    }
  }
  return words;
}

}  // namespace infergate
