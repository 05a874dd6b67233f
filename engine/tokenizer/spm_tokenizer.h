// SentencePiece-style tokenizer for GGUF vocabularies of model "llama", as llama.cpp's
// llm_tokenizer_spm: spaces become "▁" (U+2581), one is prepended (add_space_prefix), and the
// UTF-8 characters are merged pairwise, always the adjacent pair whose merged piece has the
// highest score (leftmost on ties), until no adjacent pair forms a piece. What remains
// unspelled falls back to its bytes' <0xNN> tokens (the unknown token without them).
// Not handled: user-defined tokens are not split out of the text before merging.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

class SpmTokenizer : public Tokenizer {
 public:
  // Copies what it needs from `vocab`; scores default to 0 and types to normal when absent.
  explicit SpmTokenizer(const Vocabulary& vocab, bool add_space_prefix = true);

  std::vector<int32_t> encode(std::string_view text, bool add_bos) const override;

  // As Tokenizer::decode, less the space encode prefixed to the first text token.
  std::string decode(std::span<const int32_t> ids) const override;

  // "▁" decodes as a space; "<0xNN>" as its byte.
  std::string decode_token(int32_t id) const override;

 private:
  int32_t find(std::string_view piece) const;  // -1 when not in the vocabulary

  std::unordered_map<std::string, int32_t> ids_;  // piece -> id (the last of duplicates)
  std::vector<float> scores_;
  std::vector<std::string> texts_;  // decode_token's answer for every id
  std::array<int32_t, 256> byte_ids_;
  int32_t unk_id_;
  bool add_space_prefix_;
};

}  // namespace infergate
