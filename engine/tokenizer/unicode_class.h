// The Unicode classes the GPT-2 pre-tokenizer regex asks about (\p{L}, \p{N}, \s). ASCII and
// Latin-1 are exact; beyond them a small table of ranges covers the common scripts (Latin,
// Greek, Cyrillic, Armenian, Hebrew, Arabic, Devanagari, Thai, Georgian, Hangul, kana, CJK,
// fullwidth forms) and their decimal digits. Everything else counts as "other" (punctuation,
// symbols, emoji), which differs from full Unicode only for rarer scripts.
#pragma once

#include <cstdint>

namespace infergate {

enum class UnicodeClass { kLetter, kNumber, kWhitespace, kOther };

UnicodeClass unicode_class(uint32_t cp);

}  // namespace infergate
