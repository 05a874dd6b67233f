#include "engine/tokenizer/byte_tokenizer.h"

#include <cstdio>
#include <stdexcept>

#include "engine/tokenizer/byte_piece.h"

namespace infergate {

namespace {

// SentencePiece marks a word-initial space with U+2581 LOWER ONE EIGHTH BLOCK.
std::string spaces_from_sentencepiece(const std::string& piece) {
  static constexpr std::string_view kSpaceMark = "\xE2\x96\x81";
  std::string out;
  out.reserve(piece.size());
  for (size_t i = 0; i < piece.size();) {
    if (piece.compare(i, kSpaceMark.size(), kSpaceMark) == 0) {
      out.push_back(' ');
      i += kSpaceMark.size();
    } else {
      out.push_back(piece[i++]);
    }
  }
  return out;
}

}  // namespace

ByteTokenizer::ByteTokenizer(const Vocabulary& vocab) : Tokenizer(vocab) {
  byte_to_id_.fill(-1);
  pieces_.resize(vocab.size());
  for (size_t id = 0; id < vocab.size(); ++id) {
    const std::string& piece = vocab.tokens[id];
    // Vocabularies built by hand may carry no types; treat those entries as normal pieces.
    const TokenType type = id < vocab.types.size() ? vocab.types[id] : TokenType::kNormal;
    const int32_t sid = static_cast<int32_t>(id);
    const int byte = byte_of_piece(piece);
    if (byte >= 0) {
      // A duplicate byte piece still decodes to its byte; encoding uses the first.
      if (byte_to_id_[static_cast<size_t>(byte)] < 0) byte_to_id_[static_cast<size_t>(byte)] = sid;
      pieces_[id] = std::string(1, static_cast<char>(byte));
    } else if (type == TokenType::kControl || type == TokenType::kUnknown ||
               type == TokenType::kUnused || sid == vocab.bos_id || sid == vocab.eos_id ||
               sid == vocab.unk_id) {
      pieces_[id].clear();  // markers, not text
    } else {
      pieces_[id] = spaces_from_sentencepiece(piece);
    }
  }
  for (size_t b = 0; b < byte_to_id_.size(); ++b) {
    if (byte_to_id_[b] < 0) {
      char name[8];
      std::snprintf(name, sizeof(name), "<0x%02X>", static_cast<unsigned>(b));
      throw std::invalid_argument(
          std::string("ByteTokenizer: vocabulary has no byte token ") + name + " (" +
          std::to_string(vocab.size()) +
          " tokens); it needs all 256 SentencePiece byte-fallback pieces <0x00>..<0xFF>");
    }
  }
}

std::vector<int32_t> ByteTokenizer::encode(std::string_view text, bool add_bos) const {
  std::vector<int32_t> ids;
  ids.reserve(text.size() + (add_bos ? 1 : 0));
  if (add_bos) {
    if (bos_id() < 0 || bos_id() >= vocab_size()) {
      throw std::invalid_argument("ByteTokenizer::encode: add_bos but the vocabulary's bos_id " +
                                  std::to_string(bos_id()) + " is not a token id");
    }
    ids.push_back(bos_id());
  }
  for (const char c : text) ids.push_back(byte_to_id_[static_cast<unsigned char>(c)]);
  return ids;
}

std::string ByteTokenizer::decode(std::span<const int32_t> ids) const {
  std::string text;
  text.reserve(ids.size());
  for (const int32_t id : ids) text += piece(id);
  return text;
}

std::string ByteTokenizer::decode_token(int32_t id) const { return piece(id); }

const std::string& ByteTokenizer::piece(int32_t id) const {
  if (id < 0 || id >= vocab_size()) {
    throw std::out_of_range("ByteTokenizer: token id " + std::to_string(id) +
                            " is outside the vocabulary [0, " + std::to_string(vocab_size()) + ")");
  }
  return pieces_[static_cast<size_t>(id)];
}

}  // namespace infergate
