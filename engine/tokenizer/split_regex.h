// A split pattern of a tokenizer (tokenizer.json's Split and Replace patterns, the GGUF
// pre-tokenizers' patterns), compiled by PCRE2 with Unicode properties (\p{L}, \p{N}, \s as
// Unicode defines them) and JIT: the syntax of Hugging Face's Oniguruma patterns that real
// tokenizers use (classes, lookahead, (?i:...), {m,n}) means the same in PCRE2.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace infergate {

struct TextSpan {
  size_t begin;
  size_t end;
};

class SplitRegex {
 public:
  // Throws std::invalid_argument naming the pattern, PCRE2's message and the offset.
  explicit SplitRegex(const std::string& pattern);
  ~SplitRegex();
  SplitRegex(SplitRegex&&) noexcept;
  SplitRegex& operator=(SplitRegex&&) noexcept;

  // Every non-overlapping match, leftmost first; an empty match is skipped, and the search goes
  // on one character later (as Oniguruma's iterator does). Invalid UTF-8 never matches a class
  // but is no error.
  std::vector<TextSpan> find_all(std::string_view text) const;

  const std::string& pattern() const { return pattern_; }

 private:
  struct Compiled;
  std::string pattern_;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace infergate
