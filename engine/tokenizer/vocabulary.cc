#include "engine/tokenizer/vocabulary.h"

#include <cstdio>
#include <stdexcept>

namespace infergate {

Vocabulary synthetic_vocabulary(int size) {
  constexpr int kSpecial = 3, kBytes = 256;
  if (size < kSpecial + kBytes) {
    throw std::invalid_argument("synthetic vocabulary needs at least 259 tokens, got " +
                                std::to_string(size));
  }
  Vocabulary v;
  v.tokens = {"<unk>", "<s>", "</s>"};
  v.types = {TokenType::kUnknown, TokenType::kControl, TokenType::kControl};
  for (int b = 0; b < kBytes; ++b) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    v.tokens.emplace_back(name);
    v.types.push_back(TokenType::kByte);
  }
  // A lone "▁" (SentencePiece's space) lets llama.cpp's tokenizer round-trip spaces; then
  // distinct, never-merged pieces "▁t<N>" keep every entry unique for exporters.
  if (int(v.tokens.size()) < size) {
    v.tokens.push_back("\xE2\x96\x81");
    v.types.push_back(TokenType::kNormal);
  }
  for (int i = int(v.tokens.size()); i < size; ++i) {
    v.tokens.push_back("\xE2\x96\x81t" + std::to_string(i));
    v.types.push_back(TokenType::kNormal);
  }
  v.scores.assign(size_t(size), 0.0f);
  for (int i = kSpecial + kBytes; i < size; ++i) v.scores[size_t(i)] = -float(i);
  return v;
}

}  // namespace infergate
