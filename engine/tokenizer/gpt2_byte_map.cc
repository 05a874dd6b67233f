#include "engine/tokenizer/gpt2_byte_map.h"

#include <array>

#include "engine/tokenizer/utf8.h"

namespace infergate {

namespace {

bool printable(int b) {
  return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE && b <= 0xFF);
}

// The table of openai/gpt-2's bytes_to_unicode(): printable bytes map to themselves, the other
// 68 to 256, 257, ... in byte order.
const std::array<uint32_t, 256>& byte_table() {
  static const std::array<uint32_t, 256> table = [] {
    std::array<uint32_t, 256> t{};
    uint32_t next = 256;
    for (int b = 0; b < 256; ++b) t[static_cast<size_t>(b)] = printable(b) ? b : next++;
    return t;
  }();
  return table;
}

}  // namespace

uint32_t gpt2_byte_to_code_point(uint8_t byte) { return byte_table()[byte]; }

std::string gpt2_bytes_to_text(std::string_view bytes) {
  // Each byte's character, encoded once: tokenizers spell every byte of their input this way.
  static const std::array<std::string, 256> encoded = [] {
    std::array<std::string, 256> e;
    for (int b = 0; b < 256; ++b) {
      e[static_cast<size_t>(b)] = utf8_encode(byte_table()[static_cast<size_t>(b)]);
    }
    return e;
  }();
  std::string text;
  text.reserve(bytes.size() + bytes.size() / 2);
  for (char c : bytes) text += encoded[static_cast<uint8_t>(c)];
  return text;
}

std::string gpt2_text_to_bytes(std::string_view text) {
  std::string bytes;
  for (size_t pos = 0; pos < text.size();) {
    const Utf8Char c = utf8_next(text, pos);
    int byte = -1;
    if (c.cp < 256 && printable(static_cast<int>(c.cp))) {
      byte = static_cast<int>(c.cp);
    } else if (c.cp >= 256 && c.cp < 256 + 68) {
      for (int b = 0; b < 256 && byte < 0; ++b) {
        if (byte_table()[static_cast<size_t>(b)] == c.cp) byte = b;
      }
    }
    if (byte >= 0) {
      bytes.push_back(static_cast<char>(byte));
    } else {
      bytes.append(text.substr(pos, c.size));
    }
    pos += c.size;
  }
  return bytes;
}

}  // namespace infergate
