#include "engine/tokenizer/token_decoder.h"

#include "engine/tokenizer/byte_piece.h"
#include "engine/tokenizer/gpt2_byte_map.h"
#include "engine/tokenizer/text_replace.h"
#include "engine/tokenizer/utf8.h"

namespace infergate {

namespace {

// Hugging Face decodes a ByteLevel token by its characters only when every one of them stands
// for a byte; a token with any other character (DeepSeek's "<｜begin▁of▁sentence｜>") is kept.
std::string byte_level_text(const std::string& piece) {
  const std::string bytes = gpt2_text_to_bytes(piece);
  return gpt2_bytes_to_text(bytes) == piece ? bytes : piece;
}

std::string strip(std::string text, const std::string& content, int start, int stop) {
  if (content.empty()) return text;
  for (int i = 0; i < start && text.compare(0, content.size(), content) == 0; ++i) {
    text.erase(0, content.size());
  }
  for (int i = 0; i < stop && text.size() >= content.size() &&
                  text.compare(text.size() - content.size(), content.size(), content) == 0;
       ++i) {
    text.erase(text.size() - content.size());
  }
  return text;
}

}  // namespace

void TokenDecoder::add_replace(std::string from, std::string to) {
  replacements_.push_back({std::move(from), std::move(to)});
}

void TokenDecoder::add_strip(std::string content, int start, int stop) {
  (fused_ ? text_strips_ : token_strips_).push_back({std::move(content), start, stop});
}

void TokenDecoder::add_metaspace(std::string replacement, bool strip_leading_space) {
  replacements_.push_back({std::move(replacement), " "});
  strip_first_space_ = strip_first_space_ || strip_leading_space;
}

std::string TokenDecoder::token_text(const std::string& piece) const {
  if (byte_fallback_) {
    const int byte = byte_of_piece(piece);
    if (byte >= 0) return std::string(1, static_cast<char>(byte));
  }
  std::string text = byte_level_ ? byte_level_text(piece) : piece;
  for (const Replacement& r : replacements_) text = replace_all(text, r.from, r.to);
  for (const Strip& s : token_strips_) text = strip(std::move(text), s.content, s.start, s.stop);
  return text;
}

std::string TokenDecoder::text(const std::vector<std::string>& pieces) const {
  std::string out;
  for (size_t i = 0; i < pieces.size(); ++i) {
    std::string t = token_text(pieces[i]);
    if (i == 0 && strip_first_space_ && !t.empty() && t[0] == ' ') t.erase(0, 1);
    out += t;
  }
  for (const Strip& s : text_strips_) out = strip(std::move(out), s.content, s.start, s.stop);
  return out;
}

}  // namespace infergate
