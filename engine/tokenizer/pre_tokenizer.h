// tokenizer.json's "pre_tokenizer": how normalized text is cut into words before BPE, and the
// rewrites some steps make (ByteLevel spells bytes as GPT-2's characters, Metaspace spaces as
// "▁"). Steps run in order over every piece the previous ones left (a Sequence). Supported:
// Split (a pattern or a string, any behavior, invert), ByteLevel (add_prefix_space, use_regex),
// Metaspace (replacement, prepend_scheme always|first|never, split), Digits, Punctuation,
// Whitespace, WhitespaceSplit; anything else is refused by name when the tokenizer is loaded.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/tokenizer/split_behavior.h"
#include "engine/tokenizer/split_regex.h"

namespace infergate {

struct PreTokenPiece {
  std::string text;
  bool at_text_start = false;  // the piece begins the whole input (Metaspace's "first")
};

class PreTokenizerStep {
 public:
  // A cut by `pattern` (a PCRE2 pattern) with `behavior`.
  static PreTokenizerStep split_pattern(const std::string& pattern, SplitBehavior behavior,
                                        bool invert);
  // A cut at every occurrence of the literal string `text`.
  static PreTokenizerStep split_string(std::string text, SplitBehavior behavior, bool invert);
  static PreTokenizerStep byte_level(bool add_prefix_space, bool use_regex);
  // `prepend_scheme`: "always", "first" or "never".
  static PreTokenizerStep metaspace(std::string replacement, const std::string& prepend_scheme,
                                    bool split);

  void apply(std::vector<PreTokenPiece>& pieces) const;

 private:
  enum class Kind { kSplit, kByteLevel, kMetaspace };
  enum class Prepend { kAlways, kFirst, kNever };

  void split(std::vector<PreTokenPiece>& pieces) const;
  void byte_level(std::vector<PreTokenPiece>& pieces) const;
  void metaspace(std::vector<PreTokenPiece>& pieces) const;

  Kind kind_ = Kind::kSplit;
  std::shared_ptr<const SplitRegex> pattern_;  // null: split_string's literal
  std::string literal_;
  SplitBehavior behavior_ = SplitBehavior::kIsolated;
  bool invert_ = false;
  bool add_prefix_space_ = false;
  bool use_regex_ = false;
  std::string replacement_;
  Prepend prepend_ = Prepend::kAlways;
  bool metaspace_split_ = true;
};

// The pre-tokenizers tokenizer.json names by type, as the pattern steps they are:
//   Digits (individual_digits or not), Punctuation (a behavior), Whitespace, WhitespaceSplit.
PreTokenizerStep digits_step(bool individual);
PreTokenizerStep punctuation_step(SplitBehavior behavior);
PreTokenizerStep whitespace_step();
PreTokenizerStep whitespace_split_step();

// GPT-2's pattern, which ByteLevel with use_regex cuts by.
extern const char* const kGpt2SplitPattern;

// The pieces of `text` after every step.
std::vector<PreTokenPiece> pre_tokenize(const std::vector<PreTokenizerStep>& steps,
                                        std::string text, bool at_text_start);

}  // namespace infergate
