// A request's grammar over a model's vocabulary: the tokens each state allows (a token is
// allowed when the grammar takes all of its bytes), cached by state, since constrained
// decoding revisits the same states (inside a JSON string, between the fields of an object).
// Shared by the choices of a request; one engine thread uses it at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "engine/grammar/grammar_matcher.h"
#include "engine/grammar/token_trie.h"

namespace infergate {

struct TokenMaskStats {
  int64_t masks = 0;       // masks asked for
  int64_t cache_hits = 0;  // of them, found cached
  int64_t compute_ns = 0;  // time spent computing the others
};

class TokenGrammar {
 public:
  static constexpr size_t kMaxCachedMasks = 4096;

  TokenGrammar(std::shared_ptr<const Grammar> grammar, std::shared_ptr<const TokenTrie> vocabulary);

  GrammarMatcher start() const { return GrammarMatcher(grammar_); }
  // allowed[id] for every token of the vocabulary; EOS is the caller's (complete()).
  std::shared_ptr<const std::vector<bool>> allowed(const GrammarMatcher& state) const;
  // Jump-forward: where the grammar allows exactly one byte at a time (a JSON key, the
  // punctuation between fields), those bytes as tokens, longest vocabulary match first, at most
  // `max_tokens` of them and none past the forced bytes. Empty where the next byte is a choice
  // or the grammar may end.
  std::vector<int32_t> forced_tokens(const GrammarMatcher& state, int max_tokens) const;
  // Advances `state` over `token`'s bytes; false when the grammar refuses them.
  bool advance(GrammarMatcher& state, int32_t token) const;
  const TokenTrie& vocabulary() const { return *vocabulary_; }
  TokenMaskStats stats() const;

 private:
  std::shared_ptr<const std::vector<bool>> compute(const GrammarMatcher& state) const;

  std::shared_ptr<const Grammar> grammar_;
  std::shared_ptr<const TokenTrie> vocabulary_;
  mutable std::mutex mutex_;
  mutable std::unordered_map<std::string, std::shared_ptr<const std::vector<bool>>> cache_;
  mutable TokenMaskStats stats_;
};

}  // namespace infergate
