// GPT-2's reversible byte <-> printable-character mapping: BPE vocabularies spell raw bytes as
// code points, the printable Latin-1 bytes as themselves and the rest (controls, space, ...)
// as U+0100 onwards, so a space is "Ġ" (U+0120) and a newline "Ċ" (U+010A).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace infergate {

// The code point that stands for `byte`.
uint32_t gpt2_byte_to_code_point(uint8_t byte);

// Every byte of `bytes` as its code point, UTF-8 encoded.
std::string gpt2_bytes_to_text(std::string_view bytes);

// The inverse of gpt2_bytes_to_text; code points that stand for no byte are kept as UTF-8.
std::string gpt2_text_to_bytes(std::string_view text);

}  // namespace infergate
