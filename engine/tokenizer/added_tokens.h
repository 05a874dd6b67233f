// tokenizer.json's "added_tokens" (special tokens such as <|eot_id|>, and tokens added to a
// vocabulary): never split, matched in the text before the model sees it, leftmost and longest
// first, as Hugging Face's AddedVocabulary does. Tokens with "normalized": false are matched in
// the raw text; those with true in each stretch after normalization. "lstrip"/"rstrip" take the
// whitespace before/after a match into it; "single_word" matches only between non-word
// characters.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace infergate {

struct AddedToken {
  std::string content;
  int32_t id = -1;
  bool special = false;
  bool lstrip = false;
  bool rstrip = false;
  bool single_word = false;
  bool normalized = false;
};

// A stretch of text, or one added token.
struct AddedTokenSegment {
  std::string text;
  int32_t id = -1;    // >= 0: the added token; text is then empty
  size_t offset = 0;  // where the segment starts in the text that was split
};

class AddedTokenMatcher {
 public:
  // The tokens of `tokens` whose "normalized" flag equals `normalized`.
  AddedTokenMatcher(const std::vector<AddedToken>& tokens, bool normalized);

  // `text` cut around every match; no empty text segments.
  std::vector<AddedTokenSegment> split(std::string_view text) const;

  bool empty() const { return tokens_.empty(); }

 private:
  struct Match {
    size_t begin;
    size_t end;
    int token;  // index into tokens_
  };
  // The longest token starting at `pos`, or token -1.
  Match longest_at(std::string_view text, size_t pos) const;
  bool word_boundaries_hold(std::string_view text, const Match& m) const;

  std::vector<AddedToken> tokens_;
  // A byte trie of the tokens: (node << 8 | byte) -> child; node 0 is the root.
  std::unordered_map<uint64_t, int> edges_;
  std::vector<int> token_at_node_;  // index into tokens_ of the token ending there, or -1
  std::vector<bool> first_byte_;    // whether some token starts with the byte
};

}  // namespace infergate
