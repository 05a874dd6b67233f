#include "engine/grammar/regex_grammar.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "engine/grammar/gbnf_parser.h"
#include "engine/grammar/utf8_ranges.h"

namespace infergate {

namespace {

using CodeRange = std::pair<uint32_t, uint32_t>;  // inclusive
using CodeSet = std::vector<CodeRange>;           // sorted, disjoint, no surrogates

constexpr size_t kMaxNfaStates = 200000;
constexpr size_t kMaxDfaStates = 10000;
constexpr uint32_t kSurrogateLo = 0xD800;
constexpr uint32_t kSurrogateHi = 0xDFFF;

[[noreturn]] void fail_at(size_t offset, const std::string& what) {
  throw GrammarError("regex offset " + std::to_string(offset) + ": " + what);
}

[[noreturn]] void fail_whole(const std::string& what) { throw GrammarError("regex: " + what); }

// Sorted and merged, with the surrogates left out: UTF-8 cannot encode them, so no text holds
// one, and a class edge that stops short of them keeps the GBNF free of them.
CodeSet normalize(CodeSet set) {
  std::sort(set.begin(), set.end());
  CodeSet merged;
  for (const CodeRange& r : set) {
    if (!merged.empty() && r.first <= merged.back().second + 1) {
      merged.back().second = std::max(merged.back().second, r.second);
    } else {
      merged.push_back(r);
    }
  }
  CodeSet out;
  for (const auto& [lo, hi] : merged) {
    if (lo < kSurrogateLo) out.emplace_back(lo, std::min(hi, kSurrogateLo - 1));
    if (hi > kSurrogateHi) out.emplace_back(std::max(lo, kSurrogateHi + 1), hi);
  }
  return out;
}

CodeSet complement(const CodeSet& set) {
  CodeSet out;
  uint32_t next = 0;
  for (const auto& [lo, hi] : set) {
    if (lo > next) out.emplace_back(next, lo - 1);
    next = hi + 1;
  }
  if (next <= kMaxCodePoint) out.emplace_back(next, kMaxCodePoint);
  return normalize(std::move(out));
}

CodeSet single(uint32_t c) { return {{c, c}}; }

bool is_single(const CodeSet& set) { return set.size() == 1 && set[0].first == set[0].second; }

// The shorthand classes, ASCII only (as Python's re.ASCII): a model's "digit" is then what a
// JSON or SQL consumer of the text also takes for one.
const CodeSet kDigits = {{'0', '9'}};
const CodeSet kWord = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
const CodeSet kSpace = {{'\t', '\r'}, {' ', ' '}};  // \t \n \v \f \r and space

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_hex(char c) { return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f'); }

bool is_alnum(char c) { return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z'); }

bool is_name_char(char c) { return is_alnum(c) || c == '_'; }

// ASCII punctuation and space: the characters a backslash makes literal in both dialects.
bool is_escapable(char c) { return c >= ' ' && c < 0x7F && !is_alnum(c); }

// The parsed pattern. An empty kConcat matches the empty string.
struct Node {
  enum class Kind : uint8_t { kChars, kConcat, kAlternation, kRepeat };
  Kind kind = Kind::kConcat;
  CodeSet chars;               // kChars
  std::vector<Node> children;  // kConcat, kAlternation; kRepeat: the one repeated
  int min = 1;                 // kRepeat
  int max = 1;                 // kRepeat; -1: unbounded
  size_t offset = 0;           // where it starts in the pattern, for messages
};

Node chars_node(size_t offset, CodeSet chars) {
  Node n;
  n.kind = Node::Kind::kChars;
  n.chars = std::move(chars);
  n.offset = offset;
  return n;
}

// Recursive descent over the pattern's bytes; every refusal names the offset it starts at.
class RegexParser {
 public:
  explicit RegexParser(std::string_view pattern) : p_(pattern) {}

  Node parse() {
    if (p_.size() > kMaxRegexBytes) {
      fail_whole("the pattern has " + std::to_string(p_.size()) + " bytes; at most " +
                 std::to_string(kMaxRegexBytes) + " are allowed");
    }
    if (at('^')) ++pos_;  // the match is anchored anyway
    Node n = parse_alternation(0);
    if (pos_ < p_.size()) fail_at(pos_, "unbalanced ')': no group is open");
    return n;
  }

 private:
  bool at(char c) const { return pos_ < p_.size() && p_[pos_] == c; }
  bool at(char c, char then) const { return at(c) && pos_ + 1 < p_.size() && p_[pos_ + 1] == then; }

  Node parse_alternation(int depth) {
    Node alt;
    alt.kind = Node::Kind::kAlternation;
    alt.offset = pos_;
    alt.children.push_back(parse_sequence(depth));
    while (at('|')) {
      ++pos_;
      alt.children.push_back(parse_sequence(depth));
    }
    if (alt.children.size() == 1) return std::move(alt.children[0]);
    return alt;
  }

  Node parse_sequence(int depth) {
    Node seq;
    seq.offset = pos_;
    while (pos_ < p_.size() && !at('|') && !at(')')) {
      Node atom = parse_atom(depth);
      seq.children.push_back(parse_quantifier(std::move(atom)));
    }
    return seq;
  }

  Node parse_atom(int depth) {
    const size_t start = pos_;
    switch (p_[pos_]) {
      case '(':
        return parse_group(depth);
      case '[':
        return chars_node(start, parse_class());
      case '.':  // any character but \n, as Python without DOTALL
        ++pos_;
        return chars_node(start, complement(single('\n')));
      case '\\':
        return chars_node(start, parse_escape(false));
      case '*':
      case '+':
      case '?':
      case '{':
        fail_at(start, std::string("the quantifier '") + p_[start] +
                           "' has nothing before it to repeat (write \\" + p_[start] +
                           " for the character)");
      case '^':
        fail_at(start, "'^' is only supported as the pattern's first byte");
      case '$':
        if (depth > 0 || start + 1 != p_.size()) {
          fail_at(start, "'$' is only supported as the pattern's last byte");
        }
        ++pos_;
        return Node{};  // the end: the match is anchored anyway
      default:
        return chars_node(start, single(read_utf8()));
    }
  }

  Node parse_group(int depth) {
    const size_t start = pos_++;
    if (depth >= kMaxRegexNesting) {
      fail_at(start, "groups nested deeper than " + std::to_string(kMaxRegexNesting));
    }
    if (at('?')) parse_group_kind(start);
    Node inner = parse_alternation(depth + 1);
    if (!at(')')) fail_at(start, "unbalanced '(': the group is never closed");
    ++pos_;
    return inner;
  }

  // After "(?": what may follow is a plain group's marker, or a refusal.
  void parse_group_kind(size_t start) {
    ++pos_;
    if (at(':')) {
      ++pos_;
    } else if (at('P', '<') || (at('<') && !at('<', '=') && !at('<', '!'))) {
      pos_ += at('P') ? 2 : 1;
      read_group_name(start);  // a named group is a plain one: nothing refers to it
    } else if (at('=') || at('!') || at('<')) {
      fail_at(start, "lookarounds ((?=, (?!, (?<=, (?<!) are not supported");
    } else if (at('P', '=')) {
      fail_at(start, "backreferences ((?P=name)) are not supported");
    } else if (at('>')) {
      fail_at(start, "atomic groups ((?>...)) are not supported");
    } else {
      fail_at(start, "inline flags like (?i) and other (?...) extensions are not supported");
    }
  }

  void read_group_name(size_t start) {
    const size_t name = pos_;
    while (pos_ < p_.size() && is_name_char(p_[pos_])) ++pos_;
    if (pos_ == name || is_digit(p_[name]) || !at('>')) fail_at(start, "a malformed group name");
    ++pos_;
  }

  // Quantifiers after `atom`, if any: one, then '?' (lazy) at most.
  Node parse_quantifier(Node atom) {
    if (!(at('*') || at('+') || at('?') || at('{'))) return atom;
    Node rep;
    rep.kind = Node::Kind::kRepeat;
    rep.offset = pos_;
    std::tie(rep.min, rep.max) = read_quantifier();
    // Laziness picks among the ways to match; the set of strings matched stays the same.
    if (at('?')) {
      ++pos_;
    } else if (at('+')) {
      fail_at(pos_, "possessive quantifiers are not supported");
    }
    if (at('*') || at('+') || at('?') || at('{')) {
      fail_at(pos_, "a quantifier after a quantifier (wrap the first in a group)");
    }
    rep.children.push_back(std::move(atom));
    return rep;
  }

  // {min, max}; max -1 when unbounded.
  std::pair<int, int> read_quantifier() {
    const size_t brace = pos_;
    const char c = p_[pos_++];
    if (c != '{') return {c == '+' ? 1 : 0, c == '?' ? 1 : -1};
    const int min = read_count(brace);
    int max = min;
    if (at(',')) {
      ++pos_;
      max = at('}') ? -1 : read_count(brace);
    }
    if (!at('}')) fail_at(brace, "'{' starts no quantifier {m}, {m,} or {m,n} (write \\{)");
    ++pos_;
    if (max >= 0 && max < min) fail_at(brace, "a repetition {m,n} with n < m");
    return {min, max};
  }

  int read_count(size_t brace) {
    const size_t start = pos_;
    int value = 0;
    while (pos_ < p_.size() && is_digit(p_[pos_])) {
      value = value * 10 + (p_[pos_++] - '0');
      if (value > Grammar::kMaxRepetition) {
        fail_at(start, "a repetition count above " + std::to_string(Grammar::kMaxRepetition));
      }
    }
    if (pos_ == start) {
      fail_at(brace, "'{' starts no quantifier {m}, {m,} or {m,n} (write \\{, or {0,n} for {,n})");
    }
    return value;
  }

  CodeSet parse_class() {
    const size_t start = pos_++;
    const bool negated = at('^');
    if (negated) ++pos_;
    // Python reads a ']' here as a literal, ECMAScript as the end of an empty class.
    if (at(']')) fail_at(start, "a class starting with ']' (write \\] for the character)");
    CodeSet set;
    while (pos_ < p_.size() && !at(']')) add_class_item(set);
    if (!at(']')) fail_at(start, "unterminated class '['");
    ++pos_;
    set = normalize(std::move(set));
    return negated ? complement(set) : set;
  }

  void add_class_item(CodeSet& set) {
    const size_t start = pos_;
    const CodeSet lo = class_atom();
    if (!at('-') || pos_ + 1 >= p_.size() || p_[pos_ + 1] == ']') {
      set.insert(set.end(), lo.begin(), lo.end());
      return;
    }
    ++pos_;  // '-'
    const CodeSet hi = class_atom();
    if (!is_single(lo) || !is_single(hi)) {
      fail_at(start, "a class range with a shorthand class (\\d, \\w, \\s...) at an end");
    }
    if (hi[0].first < lo[0].first) fail_at(start, "a class range out of order");
    set.emplace_back(lo[0].first, hi[0].first);
  }

  CodeSet class_atom() {
    if (at('\\')) return parse_escape(true);
    if (at('[', ':')) fail_at(pos_, "POSIX classes like [:alpha:] are not supported");
    return single(read_utf8());
  }

  // The code points an escape stands for.
  CodeSet parse_escape(bool in_class) {
    const size_t start = pos_++;
    if (pos_ >= p_.size()) fail_at(start, "a trailing backslash");
    const char e = p_[pos_++];
    switch (e) {
      case 'd':
        return kDigits;
      case 'D':
        return complement(kDigits);
      case 'w':
        return kWord;
      case 'W':
        return complement(kWord);
      case 's':
        return kSpace;
      case 'S':
        return complement(kSpace);
      case 'n':
        return single('\n');
      case 't':
        return single('\t');
      case 'r':
        return single('\r');
      case 'f':
        return single('\f');
      case 'v':
        return single('\v');
      case 'x':
        return single(read_hex(2, start));
      case 'u':
        return single(read_hex(4, start));
      case 'U':
        return single(read_hex(8, start));
      default:
        break;
    }
    if (e == 'b' && in_class) return single('\b');  // backspace, in both dialects
    if (is_escapable(e)) return single(uint32_t(e));
    refuse_escape(start, e);
  }

  [[noreturn]] static void refuse_escape(size_t start, char e) {
    const std::string name = std::string("\\") + e;
    if (e >= '1' && e <= '9') fail_at(start, "backreferences (" + name + ") are not supported");
    if (e == 'k') fail_at(start, "backreferences (\\k<name>) are not supported");
    if (e == 'b' || e == 'B') fail_at(start, "word boundaries (" + name + ") are not supported");
    if (e == 'A' || e == 'Z' || e == 'z' || e == 'G') {
      fail_at(start, "the anchor " + name + " is not supported");
    }
    if (e == 'p' || e == 'P') fail_at(start, "Unicode properties (" + name + ") are not supported");
    if (e == '0') fail_at(start, "octal escapes (\\0) are not supported: write \\x00");
    if (e > ' ' && e < 0x7F) fail_at(start, "the escape " + name + " is not supported");
    fail_at(start, "a backslash before a control or non-ASCII character is not supported");
  }

  uint32_t read_hex(int digits, size_t start) {
    uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
      if (pos_ >= p_.size() || !is_hex(p_[pos_])) {
        fail_at(start,
                "expected " + std::to_string(digits) + " hex digits after \\" + p_[start + 1]);
      }
      const char h = p_[pos_++];
      v = v * 16 + uint32_t(is_digit(h) ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    if (v > kMaxCodePoint) fail_at(start, "a code point past U+10FFFF");
    if (v >= kSurrogateLo && v <= kSurrogateHi) {
      fail_at(start, "a surrogate code point (U+D800-U+DFFF): no UTF-8 text holds one");
    }
    return v;
  }

  uint32_t read_utf8() {
    const size_t start = pos_;
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(p_[i]); };
    const unsigned char c = byte(pos_++);
    if (c < 0x80) return c;
    const int n = c >= 0xF8 ? -1 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 ? 1 : -1;
    if (n < 0) fail_at(start, "invalid UTF-8");
    uint32_t v = c & (0x3F >> n);
    for (int i = 0; i < n; ++i) {
      if (pos_ >= p_.size() || (byte(pos_) & 0xC0) != 0x80) fail_at(start, "invalid UTF-8");
      v = (v << 6) | (byte(pos_++) & 0x3F);
    }
    static constexpr uint32_t kShortest[] = {0, 0x80, 0x800, 0x10000};
    if (v < kShortest[n] || v > kMaxCodePoint || (v >= kSurrogateLo && v <= kSurrogateHi)) {
      fail_at(start, "invalid UTF-8");
    }
    return v;
  }

  std::string_view p_;
  size_t pos_ = 0;
};

struct NfaMove {
  uint32_t lo, hi;  // code points, inclusive
  int32_t target;
};

struct NfaState {
  std::vector<int32_t> epsilon;
  std::vector<NfaMove> moves;
};

// Thompson's construction: each node becomes a piece from a given state to the state build
// returns. A loop goes back only to a state made for it, so no piece leaks into another.
class NfaBuilder {
 public:
  std::vector<NfaState> states;

  int32_t add_state() {
    if (states.size() >= kMaxNfaStates) {
      fail_at(blame_, "the repetition expands the pattern past " + std::to_string(kMaxNfaStates) +
                          " automaton states (counted repetitions are unrolled): make it smaller");
    }
    states.emplace_back();
    return int32_t(states.size() - 1);
  }

  int32_t build(const Node& n, int32_t from) {
    switch (n.kind) {
      case Node::Kind::kChars: {
        const int32_t to = add_state();
        for (const auto& [lo, hi] : n.chars) states[size_t(from)].moves.push_back({lo, hi, to});
        return to;
      }
      case Node::Kind::kConcat:
        for (const Node& child : n.children) from = build(child, from);
        return from;
      case Node::Kind::kAlternation:
        return build_alternation(n, from);
      case Node::Kind::kRepeat:
        return build_repeat(n, from);
    }
    return from;
  }

 private:
  void epsilon(int32_t from, int32_t to) { states[size_t(from)].epsilon.push_back(to); }

  int32_t build_alternation(const Node& n, int32_t from) {
    const int32_t join = add_state();
    for (const Node& child : n.children) {
      const int32_t start = add_state();
      epsilon(from, start);
      epsilon(build(child, start), join);
    }
    return join;
  }

  // min copies, then a loop or (max - min) optional copies, each of which may end the run.
  int32_t build_repeat(const Node& n, int32_t from) {
    if (repeating_++ == 0) blame_ = n.offset;  // the outermost one multiplies the rest
    const Node& child = n.children[0];
    for (int i = 0; i < n.min; ++i) from = build(child, from);
    if (n.max < 0) {
      const int32_t loop = add_state();
      epsilon(from, loop);
      epsilon(build(child, loop), loop);
      from = loop;
    } else if (n.max > n.min) {
      const int32_t out = add_state();
      for (int i = n.min; i < n.max; ++i) {
        epsilon(from, out);
        from = build(child, from);
      }
      epsilon(from, out);
      from = out;
    }
    --repeating_;
    return from;
  }

  size_t blame_ = 0;
  int repeating_ = 0;
};

struct DfaEdge {
  uint32_t lo, hi;
  int32_t target;
};

struct DfaState {
  bool accepting = false;
  std::vector<DfaEdge> edges;  // sorted by code point, disjoint
};

// The subset construction. A subset is keyed by its states that have moves, plus the accepting
// state when present: subsets that agree there have the same future, so they are one state.
class DfaBuilder {
 public:
  DfaBuilder(const std::vector<NfaState>& nfa, int32_t accept)
      : nfa_(nfa), accept_(accept), seen_(nfa.size(), 0) {}

  std::vector<DfaState> build(int32_t start) {
    state_for(closure({start}));
    for (size_t i = 0; i < dfa_.size(); ++i) {  // dfa_ grows as successors are found
      const Key key = keys_[i];
      std::vector<DfaEdge> edges = edges_from(key);
      dfa_[i].edges = std::move(edges);
    }
    return std::move(dfa_);
  }

 private:
  using Key = std::vector<int32_t>;

  Key closure(std::vector<int32_t> stack) {
    ++stamp_;
    Key key;
    while (!stack.empty()) {
      const int32_t s = stack.back();
      stack.pop_back();
      if (seen_[size_t(s)] == stamp_) continue;
      seen_[size_t(s)] = stamp_;
      if (!nfa_[size_t(s)].moves.empty() || s == accept_) key.push_back(s);
      for (int32_t t : nfa_[size_t(s)].epsilon) stack.push_back(t);
    }
    std::sort(key.begin(), key.end());
    return key;
  }

  int32_t state_for(Key key) {
    const auto found = ids_.find(key);
    if (found != ids_.end()) return found->second;
    if (dfa_.size() >= kMaxDfaStates) {
      fail_whole("the pattern needs more than " + std::to_string(kMaxDfaStates) +
                 " automaton states (as .*a.{20} does: a counted repetition after an unbounded "
                 "one multiplies them): simplify it");
    }
    DfaState state;
    state.accepting = std::binary_search(key.begin(), key.end(), accept_);
    dfa_.push_back(std::move(state));
    keys_.push_back(key);
    ids_.emplace(std::move(key), int32_t(dfa_.size() - 1));
    return int32_t(dfa_.size() - 1);
  }

  // The subset's moves cut into spans where the same NFA moves apply; each span an edge.
  std::vector<DfaEdge> edges_from(const Key& key) {
    std::vector<NfaMove> moves;
    std::vector<uint32_t> cuts;
    for (int32_t s : key) {
      for (const NfaMove& m : nfa_[size_t(s)].moves) {
        moves.push_back(m);
        cuts.push_back(m.lo);
        cuts.push_back(m.hi + 1);
      }
    }
    std::sort(moves.begin(), moves.end(),
              [](const NfaMove& a, const NfaMove& b) { return a.lo < b.lo; });
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<DfaEdge> edges;
    std::vector<NfaMove> active;
    std::map<std::vector<int32_t>, int32_t> cache;  // the same targets recur across spans
    size_t next = 0;
    for (size_t i = 0; i + 1 < cuts.size(); ++i) {
      std::erase_if(active, [&](const NfaMove& m) { return m.hi < cuts[i]; });
      while (next < moves.size() && moves[next].lo == cuts[i]) active.push_back(moves[next++]);
      std::vector<int32_t> targets;
      for (const NfaMove& m : active) targets.push_back(m.target);
      std::sort(targets.begin(), targets.end());
      targets.erase(std::unique(targets.begin(), targets.end()), targets.end());
      if (targets.empty()) continue;
      auto [it, added] = cache.emplace(targets, -1);
      if (added) {
        Key to = closure(targets);
        if (!to.empty()) it->second = state_for(std::move(to));
      }
      if (it->second >= 0) add_edge(edges, {cuts[i], cuts[i + 1] - 1, it->second});
    }
    return edges;
  }

  static void add_edge(std::vector<DfaEdge>& edges, DfaEdge e) {
    if (!edges.empty() && edges.back().target == e.target && edges.back().hi + 1 == e.lo) {
      edges.back().hi = e.hi;
    } else {
      edges.push_back(e);
    }
  }

  const std::vector<NfaState>& nfa_;
  const int32_t accept_;
  std::vector<uint32_t> seen_;  // == stamp_: visited by the current closure
  uint32_t stamp_ = 0;
  std::vector<DfaState> dfa_;
  std::vector<Key> keys_;
  std::map<Key, int32_t> ids_;
};

// Drops edges into states from which no text is accepted, so every rule written can end.
void prune_dead(std::vector<DfaState>& dfa) {
  std::vector<std::vector<int32_t>> sources(dfa.size());
  std::vector<int32_t> stack;
  std::vector<bool> live(dfa.size(), false);
  for (size_t s = 0; s < dfa.size(); ++s) {
    for (const DfaEdge& e : dfa[s].edges) sources[size_t(e.target)].push_back(int32_t(s));
    if (dfa[s].accepting) {
      live[s] = true;
      stack.push_back(int32_t(s));
    }
  }
  while (!stack.empty()) {
    const int32_t s = stack.back();
    stack.pop_back();
    for (int32_t from : sources[size_t(s)]) {
      if (!live[size_t(from)]) {
        live[size_t(from)] = true;
        stack.push_back(from);
      }
    }
  }
  if (!live[0]) fail_whole("the pattern matches no string");
  for (DfaState& state : dfa) {
    std::erase_if(state.edges, [&](const DfaEdge& e) { return !live[size_t(e.target)]; });
  }
}

std::string utf8(uint32_t c) {
  std::string out;
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
  return out;
}

// A code point as GBNF reads it inside "..." or [...]: control characters escaped (so the text
// stays printable), everything else as its UTF-8.
std::string gbnf_char(uint32_t c) {
  if (c == '\n') return "\\n";
  if (c == '\r') return "\\r";
  if (c == '\t') return "\\t";
  if (c >= 0x20 && c != 0x7F && (c < 0x80 || c >= 0xA0)) return utf8(c);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out = c < 0x80 ? "\\x" : "\\u00";
  out += kHex[c >> 4];
  out += kHex[c & 0xF];
  return out;
}

std::string literal_char(uint32_t c) {
  if (c == '"' || c == '\\') return std::string("\\") + char(c);
  return gbnf_char(c);
}

std::string class_char(uint32_t c) {
  if (c < 0x80 && std::string_view("\\\"[]-^").find(char(c)) != std::string_view::npos) {
    return std::string("\\") + char(c);
  }
  return gbnf_char(c);
}

std::string class_body(const CodeSet& set) {
  std::string out;
  for (const auto& [lo, hi] : set) {
    out += class_char(lo);
    if (hi == lo) continue;
    if (hi > lo + 1) out += '-';
    out += class_char(hi);
  }
  return out;
}

// The shorter of the class and its negation: `.` reads as [^\n]. GBNF's negation also takes
// the surrogates, which no UTF-8 text holds, so the two match the same bytes.
std::string class_text(const CodeSet& set) {
  const CodeSet rest = complement(set);
  if (rest.empty()) return "[\\x00-\\U0010FFFF]";
  std::string positive = "[" + class_body(set) + "]";
  std::string negative = "[^" + class_body(rest) + "]";
  return negative.size() < positive.size() ? negative : positive;
}

// The DFA as GBNF: a rule per state that is reached from two places or may go two ways; each
// other state is written where it is reached, so a run of single steps reads as a sequence.
class GbnfWriter {
 public:
  explicit GbnfWriter(const std::vector<DfaState>& dfa)
      : dfa_(dfa), steps_(dfa.size()), in_degree_(dfa.size(), 0), names_(dfa.size(), -1) {
    in_degree_[0] = 1;  // the start
    for (size_t s = 0; s < dfa.size(); ++s) {
      std::map<int32_t, CodeSet> by_target;  // one class per successor
      for (const DfaEdge& e : dfa[s].edges) by_target[e.target].emplace_back(e.lo, e.hi);
      for (auto& [target, chars] : by_target) {
        steps_[s].push_back({std::move(chars), target});
        ++in_degree_[size_t(target)];
      }
      std::sort(steps_[s].begin(), steps_[s].end(),
                [](const Step& a, const Step& b) { return a.chars[0] < b.chars[0]; });
    }
  }

  std::string write() {
    std::string out;
    reference(0);
    for (size_t i = 0; i < queue_.size(); ++i) {  // grows as alternatives name states
      const size_t s = size_t(queue_[i]);
      std::string rule = rule_name(i) + " ::=";
      const char* separator = " ";
      for (const Step& step : steps_[s]) {
        rule += separator + alternative(step);
        separator = " | ";
      }
      if (dfa_[s].accepting) rule += std::string(separator) + "\"\"";
      out += rule + "\n";
    }
    return out;
  }

 private:
  struct Step {
    CodeSet chars;
    int32_t target;
  };

  // Rule names have no '_', so none collides with the "<rule>_<n>" names parse_gbnf makes.
  static std::string rule_name(size_t index) {
    return index == 0 ? "root" : "s" + std::to_string(index);
  }

  std::string reference(int32_t s) {
    if (names_[size_t(s)] < 0) {
      names_[size_t(s)] = int32_t(queue_.size());
      queue_.push_back(s);
    }
    return rule_name(size_t(names_[size_t(s)]));
  }

  bool inlined(int32_t s) const {
    return s != 0 && in_degree_[size_t(s)] == 1 && !dfa_[size_t(s)].accepting &&
           steps_[size_t(s)].size() == 1;
  }

  std::string alternative(const Step& step) {
    std::vector<const CodeSet*> labels = {&step.chars};
    int32_t to = step.target;
    // A cycle of inlined states could not be entered; the bound is a guard all the same.
    for (size_t n = 0; inlined(to) && n < steps_.size(); ++n) {
      labels.push_back(&steps_[size_t(to)][0].chars);
      to = steps_[size_t(to)][0].target;
    }
    std::string text = items(labels);
    if (!steps_[size_t(to)].empty()) text += " " + reference(to);  // else it can only end
    return text;
  }

  // Single characters in a row as one literal, classes between them.
  static std::string items(const std::vector<const CodeSet*>& labels) {
    std::string out, literal;
    const auto add = [&out](const std::string& item) { out += (out.empty() ? "" : " ") + item; };
    for (const CodeSet* label : labels) {
      if (is_single(*label)) {
        literal += literal_char((*label)[0].first);
        continue;
      }
      if (!literal.empty()) add("\"" + literal + "\"");
      literal.clear();
      add(class_text(*label));
    }
    if (!literal.empty()) add("\"" + literal + "\"");
    return out;
  }

  const std::vector<DfaState>& dfa_;
  std::vector<std::vector<Step>> steps_;
  std::vector<int> in_degree_;
  std::vector<int32_t> names_;  // index in queue_, -1 until referenced
  std::vector<int32_t> queue_;  // the states with a rule, in the order written
};

}  // namespace

std::string regex_to_gbnf(std::string_view pattern) {
  const Node regex = RegexParser(pattern).parse();
  NfaBuilder nfa;
  const int32_t start = nfa.add_state();
  const int32_t accept = nfa.build(regex, start);
  std::vector<DfaState> dfa = DfaBuilder(nfa.states, accept).build(start);
  prune_dead(dfa);
  std::string gbnf = GbnfWriter(dfa).write();
  try {
    parse_gbnf(gbnf);  // the size limits the matcher's grammar has, met before anyone relies on it
  } catch (const GrammarError& e) {
    fail_whole(std::string("the pattern is too large as a grammar: ") + e.what());
  }
  return gbnf;
}

}  // namespace infergate
