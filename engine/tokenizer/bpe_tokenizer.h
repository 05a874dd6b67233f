// GPT-2 byte-level BPE for GGUF vocabularies of model "gpt2", as llama.cpp's llm_tokenizer_bpe
// with the "gpt2" pre-tokenizer: the text is split into words (gpt2_pre_tokenizer.h), each
// word's bytes are spelled as GPT-2's printable characters (gpt2_byte_map.h), and within a word
// the adjacent pair with the lowest merge rank (tokenizer.ggml.merges order; leftmost on ties)
// is merged until none is left. A final piece missing from the vocabulary is spelled by its
// single-character tokens, and characters without one are dropped, as llama.cpp does.
// Not handled: user-defined tokens are not split out of the text before merging.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

class BpeTokenizer : public Tokenizer {
 public:
  // Throws std::invalid_argument for a merge that is not two pieces separated by a space.
  explicit BpeTokenizer(const Vocabulary& vocab);

  std::vector<int32_t> encode(std::string_view text, bool add_bos) const override;

  // The piece's characters mapped back to the bytes they stand for ("Ġworld" is " world").
  std::string decode_token(int32_t id) const override;

 private:
  int32_t find(std::string_view piece) const;                     // -1 when absent
  int rank(std::string_view left, std::string_view right) const;  // -1 when no such merge
  void encode_word(const std::string& word, std::vector<int32_t>& out) const;

  std::unordered_map<std::string, int32_t> ids_;  // piece -> id (the last of duplicates)
  std::unordered_map<std::string, int> ranks_;    // "left right" -> position in the merges
  std::vector<std::string> texts_;                // decode_token's answer for every id
};

}  // namespace infergate
