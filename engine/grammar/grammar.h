// A grammar lowered to bytes: rules whose alternatives are runs of elements, each element a set
// of bytes or a reference to a rule; what GrammarMatcher walks. Built by parse_gbnf (the only
// way to get one), so every rule reference resolves and no rule is left-recursive.
#pragma once

#include <bitset>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

// A grammar that cannot be used: bad syntax, an undefined rule, left recursion, a size over a
// limit, or a parse that became too ambiguous. The message names the problem.
class GrammarError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct GrammarElement {
  enum class Kind : uint8_t { kEnd, kBytes, kRule };
  Kind kind = Kind::kEnd;
  int32_t rule = -1;       // kRule
  std::bitset<256> bytes;  // kBytes
};

struct Grammar {
  // Limits on what a request may send, checked while parsing.
  static constexpr size_t kMaxTextBytes = 64 * 1024;
  static constexpr size_t kMaxElements = 200000;
  static constexpr int kMaxRepetition = 1000;

  // Every alternative is a run of elements in `elements` ending with a kEnd.
  std::vector<GrammarElement> elements;
  std::vector<std::vector<int32_t>> alternatives;  // per rule: where each alternative starts
  std::vector<std::string> rule_names;             // generated rules are named "<rule>_<n>"
  int32_t root = 0;
};

}  // namespace infergate
