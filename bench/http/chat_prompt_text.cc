#include "bench/http/chat_prompt_text.h"

#include "engine/tokenizer/byte_piece.h"

namespace infergate {

namespace {

constexpr int16_t kNothing = -1, kLetter = -2;

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// Length of the valid UTF-8 sequence at `s[i]` (RFC 3629: no overlongs, no surrogates, nothing
// above U+10FFFF), or 0 when the byte there starts none.
size_t valid_sequence_length(const std::string& s, size_t i) {
  const auto at = [&](size_t k) { return i + k < s.size() ? (unsigned char)s[i + k] : 0; };
  const unsigned char b = at(0);
  if (b < 0x80) return 1;
  if (b >= 0xC2 && b <= 0xDF) return continuation(at(1)) ? 2 : 0;
  if (b >= 0xE0 && b <= 0xEF) {
    const unsigned char lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    return at(1) >= lo && at(1) <= hi && continuation(at(2)) ? 3 : 0;
  }
  if (b >= 0xF0 && b <= 0xF4) {
    const unsigned char lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    return at(1) >= lo && at(1) <= hi && continuation(at(2)) && continuation(at(3)) ? 4 : 0;
  }
  return 0;
}

}  // namespace

ChatPromptText::ChatPromptText(int32_t vocab_size) {
  const Vocabulary vocab = synthetic_vocabulary(vocab_size);
  byte_of_id_.assign(vocab.size(), kLetter);
  for (size_t id = 0; id < vocab.size(); ++id) {
    const TokenType type = vocab.types[id];
    if (type == TokenType::kControl || type == TokenType::kUnknown) byte_of_id_[id] = kNothing;
    if (type == TokenType::kByte) byte_of_id_[id] = int16_t(byte_of_piece(vocab.tokens[id]));
    if (vocab.tokens[id] == "\xE2\x96\x81") byte_of_id_[id] = ' ';
  }
}

std::string ChatPromptText::operator()(const std::vector<int32_t>& ids) const {
  std::string bytes;
  bytes.reserve(ids.size());
  for (const int32_t id : ids) {
    const int16_t b =
        id >= 0 && size_t(id) < byte_of_id_.size() ? byte_of_id_[size_t(id)] : kLetter;
    if (b == kLetter) bytes += char('a' + (id < 0 ? -id : id) % 26);
    if (b >= 0) bytes += char(b);
  }
  return valid_utf8_or_question_marks(bytes);
}

std::string valid_utf8_or_question_marks(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = valid_sequence_length(bytes, i);
    if (n == 0) {
      out += '?';
      ++i;
    } else {
      out.append(bytes, i, n);
      i += n;
    }
  }
  return out;
}

}  // namespace infergate
