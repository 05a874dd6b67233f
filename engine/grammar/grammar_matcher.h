// Where a byte string stands in a Grammar: the set of parse stacks still alive (a pushdown
// automaton run on all of them at once, as llama.cpp's grammar sampler does). Each stack holds
// element positions, the top one always a byte set; an empty stack means the root rule may end
// here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/grammar/grammar.h"

namespace infergate {

class GrammarMatcher {
 public:
  // Parses that may be alive at once; more means an ambiguous grammar (GrammarError).
  static constexpr size_t kMaxStacks = 1024;

  explicit GrammarMatcher(std::shared_ptr<const Grammar> grammar);

  // Advances over `byte`; false (and no change) when no parse takes it.
  bool accept(uint8_t byte);
  // The state after `byte`, or nullopt when no parse takes it (accept() without a copy first:
  // the token-mask walk calls it once per vocabulary trie node).
  std::optional<GrammarMatcher> after(uint8_t byte) const;
  // Advances over every byte of `bytes`; false (and no change) when one is refused.
  bool accept(std::string_view bytes);
  // Whether the root rule may end here.
  bool complete() const;
  // Whether any byte may follow.
  bool can_continue() const;
  // The bytes some parse takes next.
  std::bitset<256> next_bytes() const;

  // A key equal for equal states (the token-mask cache's).
  std::string state_key() const;
  const Grammar& grammar() const { return *grammar_; }

 private:
  using Stack = std::vector<int32_t>;
  GrammarMatcher(std::shared_ptr<const Grammar> grammar, std::vector<Stack> stacks)
      : grammar_(std::move(grammar)), stacks_(std::move(stacks)) {}
  // Adds `stack` to `out` with rule references at its top expanded until a byte set (or
  // nothing) is on top.
  void expand(Stack stack, std::vector<Stack>& out) const;
  // The stacks after one byte, sorted and unique; empty when none takes it.
  std::vector<Stack> step(uint8_t byte) const;

  std::shared_ptr<const Grammar> grammar_;
  std::vector<Stack> stacks_;
};

}  // namespace infergate
