// tokenizer.json's BPE "model": a word becomes its characters' tokens, then the adjacent pair
// with the lowest merge rank (leftmost on ties) is merged, again and again, as Hugging Face's
// tokenizers do. A character missing from the vocabulary is spelled by its bytes' "<0xNN>"
// tokens (byte_fallback), else is the unknown token (consecutive ones fused with fuse_unk), else
// is dropped. With ignore_merges a word that is itself a token is that token (Llama 3).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace infergate {

struct BpeOptions {
  bool byte_fallback = false;
  bool ignore_merges = false;
  bool fuse_unk = false;
  int32_t unk_id = -1;  // -1: none
};

// Lookups by std::string_view without building a std::string.
struct PieceHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};
using PieceIds = std::unordered_map<std::string, int32_t, PieceHash, std::equal_to<>>;

class BpeModel {
 public:
  // `vocab`: piece -> id; `merges`: pairs of pieces in rank order. Throws std::invalid_argument
  // naming a merge whose pieces or whose result are not in the vocabulary.
  BpeModel(PieceIds vocab, const std::vector<std::pair<std::string, std::string>>& merges,
           BpeOptions options);

  // Appends the tokens of one pre-tokenized word.
  void encode_word(std::string_view word, std::vector<int32_t>& out) const;

  int32_t find(std::string_view piece) const;  // -1 when absent
  const PieceIds& vocab() const { return vocab_; }
  size_t merge_count() const { return merges_.size(); }

 private:
  struct Symbol {
    int32_t id;
    int prev;
    int next;
    bool alive;
  };
  struct Merge {
    int32_t rank;
    int32_t id;
  };

  void initial_symbols(std::string_view word, std::vector<Symbol>& symbols) const;
  void merge_all(std::vector<Symbol>& symbols) const;
  const Merge* merge_of(int32_t left, int32_t right) const;

  PieceIds vocab_;
  std::unordered_map<uint64_t, Merge> merges_;  // (left id << 32 | right id) -> merge
  std::vector<int32_t> byte_ids_;               // "<0xNN>" token of each byte, or -1
  std::vector<int32_t> small_char_ids_;         // token of each code point below 0x800, or -1
  BpeOptions options_;
};

}  // namespace infergate
