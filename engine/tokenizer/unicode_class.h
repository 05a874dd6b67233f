// The Unicode classes the GPT-2 pre-tokenizer regex asks about: \p{L} (general category L*),
// \p{N} (N*) and \s (White_Space), from ICU's character database, so every script and every
// unassigned code point is classed as llama.cpp's Unicode tables class it. Everything else
// (punctuation, symbols, marks, emoji, unassigned) is "other".
#pragma once

#include <cstdint>

namespace infergate {

enum class UnicodeClass { kLetter, kNumber, kWhitespace, kOther };

// Any value, including surrogates and values past U+10FFFF (which are "other").
UnicodeClass unicode_class(uint32_t cp);

}  // namespace infergate
