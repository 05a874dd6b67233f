// tokenizer.json's "normalizer": the rewrites applied to text before it is split (to each
// stretch of text between added tokens, as Hugging Face applies them). Supported: NFC, NFD,
// NFKC, NFKD (ICU), Lowercase, Prepend, Replace (a string or a pattern), Strip, Sequence;
// anything else is refused by name when the tokenizer is loaded.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/tokenizer/split_regex.h"

namespace infergate {

class TextNormalizer {
 public:
  enum class Kind { kUnicodeForm, kLowercase, kPrepend, kReplace, kStrip };

  static TextNormalizer unicode_form(const std::string& form);  // "NFC", "NFD", "NFKC", "NFKD"
  static TextNormalizer lowercase();
  static TextNormalizer prepend(std::string prefix);
  static TextNormalizer replace_string(std::string from, std::string to);
  static TextNormalizer replace_pattern(const std::string& pattern, std::string to);
  static TextNormalizer strip(bool left, bool right);

  // The rewritten text. Text that is not valid UTF-8 passes the Unicode forms unchanged.
  std::string apply(const std::string& text) const;

 private:
  Kind kind_ = Kind::kLowercase;
  std::string form_;
  std::string from_;
  std::string to_;
  std::shared_ptr<const SplitRegex> pattern_;
  bool left_ = false;
  bool right_ = false;
};

// The steps in order (a Sequence; one step, or none, is a sequence too).
std::string normalize_text(const std::vector<TextNormalizer>& steps, std::string text);

}  // namespace infergate
