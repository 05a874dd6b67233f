// Minimal UTF-8 helpers for the tokenizers. Invalid input never throws: a malformed lead or
// truncated sequence is taken one byte at a time, as llama.cpp's unicode_len_utf8 does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace infergate {

// Length of the sequence `lead` starts (1 for ASCII, continuation and invalid lead bytes).
size_t utf8_length(char lead);

struct Utf8Char {
  uint32_t cp;  // the code point; a malformed byte stands for itself (0x80..0xFF)
  size_t size;  // bytes it takes in the text
};

// The character starting at byte `pos` < text.size().
Utf8Char utf8_next(std::string_view text, size_t pos);

// The UTF-8 encoding of one code point (<= 0x10FFFF).
std::string utf8_encode(uint32_t cp);

}  // namespace infergate
