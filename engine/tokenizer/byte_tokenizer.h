// Byte-level tokenizer for vocabularies with SentencePiece byte fallback (<0x00>..<0xFF>): every
// UTF-8 byte becomes its byte token, so any text round-trips without a trained model. Used by
// synthetic models, whose prompts only need the right length and content, not real merges.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

class ByteTokenizer final : public Tokenizer {
 public:
  // Finds the byte tokens by their "<0xNN>" pieces, so a real llama vocabulary's byte-fallback
  // entries work too. Throws std::invalid_argument naming the first missing byte if the
  // vocabulary lacks any of the 256. Keeps its own copy of what it needs; `vocab` may go away.
  explicit ByteTokenizer(const Vocabulary& vocab);

  // One byte token per byte of `text`, preceded by the vocabulary's BOS id when add_bos.
  std::vector<int32_t> encode(std::string_view text, bool add_bos) const override;

  // Concatenation of decode_token over ids; multi-byte UTF-8 split across byte tokens is
  // reassembled byte for byte.
  std::string decode(std::span<const int32_t> ids) const override;

  // A byte token's single raw byte (which, alone, may be an incomplete UTF-8 sequence: streaming
  // callers must hold it until the sequence completes); control, unknown and unused tokens
  // decode to ""; other pieces decode with "▁" (U+2581) replaced by a space, so "▁t300" is
  // " t300". Throws std::out_of_range for an id outside the vocabulary.
  std::string decode_token(int32_t id) const override;

 private:
  const std::string& piece(int32_t id) const;  // bounds-checked pieces_[id]

  std::array<int32_t, 256> byte_to_id_;
  std::vector<std::string> pieces_;  // the decoded text of every id
};

}  // namespace infergate
