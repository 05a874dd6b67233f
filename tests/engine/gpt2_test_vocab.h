// The tail every test GPT-2 vocabulary shares: padding to `size`, <|endoftext|> as the last
// token (control, and both BOS and EOS, as GPT-2 has it), unit types and zero scores.
#pragma once

#include <string>

#include "engine/tokenizer/vocabulary.h"

namespace infergate {

inline void finish_gpt2_vocab(Vocabulary& v, int size) {
  while (static_cast<int>(v.tokens.size()) < size - 1) {
    v.tokens.push_back("<pad" + std::to_string(v.tokens.size()) + ">");
  }
  v.tokens.push_back("<|endoftext|>");
  v.types.assign(v.tokens.size(), TokenType::kNormal);
  v.types.back() = TokenType::kControl;
  v.scores.assign(v.tokens.size(), 0.0f);
  v.bos_id = v.eos_id = size - 1;
  v.unk_id = 0;
}

}  // namespace infergate
