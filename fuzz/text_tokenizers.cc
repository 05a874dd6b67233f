#include "fuzz/text_tokenizers.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/gguf_pre_tokenizers.h"
#include "engine/tokenizer/gpt2_byte_map.h"
#include "engine/tokenizer/spm_tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate::fuzz {

namespace {

// Pieces English text and ChatML markers merge into; "▁" is SentencePiece's space.
const std::vector<std::string> kSpmPieces = {"▁t", "he", "▁the", "in", "▁in",    "er",   "on",
                                             "▁a", "<|", "|>",   "im", "_start", "_end", "é"};

// GPT-2 merges, "left right" in rank order; "Ġ" is GPT-2's spelling of a space.
const std::vector<std::string> kBpeMerges = {"Ġ t", "h e", "Ġt he", "i n", "Ġ a", "e r",
                                             "o n", "< |", "| >",   "i m", "Ã ©"};

Vocabulary spm_vocabulary() {
  Vocabulary v = synthetic_vocabulary(260);  // <unk> <s> </s>, 256 bytes, "▁"
  for (size_t i = 0; i < kSpmPieces.size(); ++i) {
    v.tokens.push_back(kSpmPieces[i]);
    v.types.push_back(TokenType::kNormal);
    v.scores.push_back(-float(i));  // earlier pieces merge first
  }
  return v;
}

// The byte characters [first_byte, last_byte], the merged pieces, then <|endoftext|> as BOS
// and EOS (as GPT-2).
Vocabulary bpe_vocabulary(int first_byte, int last_byte) {
  Vocabulary v;
  v.model = "gpt2";
  for (int b = first_byte; b <= last_byte; ++b) {
    v.tokens.push_back(gpt2_bytes_to_text(std::string(1, char(b))));
  }
  auto known = [&](const std::string& piece) {
    for (const std::string& t : v.tokens) {
      if (t == piece) return true;
    }
    return false;
  };
  for (const std::string& merge : kBpeMerges) {  // the merges of pieces the vocabulary has
    const std::string left = merge.substr(0, merge.find(' '));
    const std::string right = merge.substr(merge.find(' ') + 1);
    if (!known(left) || !known(right)) continue;
    v.tokens.push_back(left + right);
    v.merges.push_back(merge);
  }
  v.tokens.push_back("<|endoftext|>");
  v.types.assign(v.tokens.size(), TokenType::kNormal);
  v.types.back() = TokenType::kControl;
  v.scores.assign(v.tokens.size(), 0.0f);
  v.bos_id = v.eos_id = int32_t(v.tokens.size()) - 1;
  v.unk_id = -1;
  return v;
}

}  // namespace

const Tokenizer& byte_tokenizer() {
  static const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  return tokenizer;
}

const Tokenizer& spm_tokenizer() {
  static const SpmTokenizer tokenizer(spm_vocabulary());
  return tokenizer;
}

const Tokenizer& bpe_tokenizer() {
  static const std::unique_ptr<Tokenizer> tokenizer =
      make_gguf_bpe_tokenizer(bpe_vocabulary(0, 255), gguf_pre_tokenizer("gpt-2"), true);
  return *tokenizer;
}

const Tokenizer& partial_bpe_tokenizer() {
  static const std::unique_ptr<Tokenizer> tokenizer =
      make_gguf_bpe_tokenizer(bpe_vocabulary('!', '~'), gguf_pre_tokenizer("gpt-2"), true);
  return *tokenizer;
}

}  // namespace infergate::fuzz
