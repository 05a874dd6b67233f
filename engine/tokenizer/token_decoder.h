// tokenizer.json's "decoder": how tokens become text again. Per token: ByteLevel (GPT-2's
// characters back to bytes), Replace (a string, e.g. "▁" to " "), ByteFallback ("<0xNN>" to its
// byte), Metaspace ("▁" to " "); on the whole text: Strip after Fuse (llama's leading space)
// and Metaspace's leading space. Fuse itself changes nothing here (tokens are concatenated
// anyway). Anything else is refused by name when the tokenizer is loaded.
#pragma once

#include <string>
#include <vector>

namespace infergate {

class TokenDecoder {
 public:
  void add_byte_level() { byte_level_ = true; }
  void add_replace(std::string from, std::string to);
  void add_byte_fallback() { byte_fallback_ = true; }
  void add_fuse() { fused_ = true; }
  // Strips up to `start` leading and `stop` trailing copies of `content` (one character): from
  // the whole text after a Fuse, else from each token.
  void add_strip(std::string content, int start, int stop);
  // `strip_leading_space`: the prepend scheme was not "never".
  void add_metaspace(std::string replacement, bool strip_leading_space);

  // One token's bytes (its piece through the per-token steps).
  std::string token_text(const std::string& piece) const;
  // The text of consecutive tokens' pieces.
  std::string text(const std::vector<std::string>& pieces) const;

 private:
  struct Replacement {
    std::string from;
    std::string to;
  };
  struct Strip {
    std::string content;
    int start;
    int stop;
  };

  bool byte_level_ = false;
  bool byte_fallback_ = false;
  bool fused_ = false;
  std::vector<Replacement> replacements_;
  std::vector<Strip> token_strips_;  // strips before any Fuse: per token
  std::vector<Strip> text_strips_;   // strips after a Fuse: on the whole text
  bool strip_first_space_ = false;
};

}  // namespace infergate
