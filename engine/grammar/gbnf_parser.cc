#include "engine/grammar/gbnf_parser.h"

#include <algorithm>
#include <map>
#include <string>

#include "engine/grammar/utf8_ranges.h"

namespace infergate {

namespace {

using Elements = std::vector<GrammarElement>;
using CodeRange = std::pair<uint32_t, uint32_t>;

GrammarElement byte_element(uint8_t b) {
  GrammarElement e;
  e.kind = GrammarElement::Kind::kBytes;
  e.bytes.set(b);
  return e;
}

GrammarElement rule_element(int32_t rule) {
  GrammarElement e;
  e.kind = GrammarElement::Kind::kRule;
  e.rule = rule;
  return e;
}

void append_utf8(uint32_t c, Elements& out) {
  for (const ByteSequence& seq : utf8_sequences(c, c)) {
    for (const ByteRange& r : seq) out.push_back(byte_element(r.first));
  }
}

bool is_name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  Grammar parse(std::string_view root_name) {
    if (text_.size() > Grammar::kMaxTextBytes) {
      throw GrammarError("the grammar has " + std::to_string(text_.size()) + " bytes; at most " +
                         std::to_string(Grammar::kMaxTextBytes) + " are allowed");
    }
    skip_space();
    while (pos_ < text_.size()) {
      const std::string name = read_name();
      skip_space();
      expect("::=");
      skip_space();
      const int32_t rule = rule_id(name);
      if (defined_[size_t(rule)]) fail("rule '" + name + "' is defined twice");
      defined_[size_t(rule)] = true;
      rules_[size_t(rule)] = parse_alternatives(name, false);
    }
    const auto root = ids_.find(std::string(root_name));
    if (root == ids_.end() || !defined_[size_t(root->second)]) {
      throw GrammarError("the grammar has no rule '" + std::string(root_name) + "' to start from");
    }
    for (size_t r = 0; r < rules_.size(); ++r) {
      if (!defined_[r]) throw GrammarError("rule '" + names_[r] + "' is used but never defined");
    }
    return lower(root->second);
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    throw GrammarError("grammar line " + std::to_string(line) + ", column " +
                       std::to_string(column) + ": " + what);
  }

  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        ++pos_;
      } else {
        break;
      }
    }
  }

  void expect(std::string_view s) {
    if (text_.substr(pos_, s.size()) != s) fail("expected '" + std::string(s) + "'");
    pos_ += s.size();
  }

  std::string read_name() {
    const size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    if (pos_ == start) fail("expected a rule name");
    return std::string(text_.substr(start, pos_ - start));
  }

  // Whether a `name ::=` starts here (the end of the current rule).
  bool at_rule_start() const {
    size_t p = pos_;
    while (p < text_.size() && is_name_char(text_[p])) ++p;
    if (p == pos_) return false;
    while (p < text_.size() &&
           (text_[p] == ' ' || text_[p] == '\t' || text_[p] == '\n' || text_[p] == '\r')) {
      ++p;
    }
    return text_.substr(p, 3) == "::=";
  }

  int32_t rule_id(const std::string& name) {
    const auto [it, added] = ids_.emplace(name, int32_t(names_.size()));
    if (added) {
      names_.push_back(name);
      rules_.emplace_back();
      defined_.push_back(false);
    }
    return it->second;
  }

  int32_t new_rule(const std::string& base, std::vector<Elements> alternatives) {
    const int32_t id = rule_id(base + "_" + std::to_string(names_.size()));
    defined_[size_t(id)] = true;
    rules_[size_t(id)] = std::move(alternatives);
    return id;
  }

  std::vector<Elements> parse_alternatives(const std::string& rule, bool nested) {
    std::vector<Elements> alternatives{parse_sequence(rule, nested)};
    while (pos_ < text_.size() && text_[pos_] == '|') {
      ++pos_;
      skip_space();
      alternatives.push_back(parse_sequence(rule, nested));
    }
    return alternatives;
  }

  Elements parse_sequence(const std::string& rule, bool nested) {
    Elements seq;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '|' || (c == ')' && nested)) break;
      if (!nested && at_rule_start()) break;
      Elements item = parse_item(rule);
      skip_space();
      apply_postfix(rule, item, seq);
      skip_space();
    }
    count(seq.size());
    return seq;
  }

  Elements parse_item(const std::string& rule) {
    const char c = text_[pos_];
    if (c == '"') return parse_literal();
    if (c == '[') return class_elements(rule, parse_class());
    if (c == '.') {
      ++pos_;
      return class_elements(rule, {{0, kMaxCodePoint}});
    }
    if (c == '(') {
      ++pos_;
      skip_space();
      std::vector<Elements> alternatives = parse_alternatives(rule, true);
      if (pos_ >= text_.size() || text_[pos_] != ')') fail("expected ')'");
      ++pos_;
      return {rule_element(new_rule(rule, std::move(alternatives)))};
    }
    if (is_name_char(c)) return {rule_element(rule_id(read_name()))};
    fail(std::string("unexpected '") + c + "'");
  }

  uint32_t parse_hex(int digits) {
    uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
      if (pos_ >= text_.size() || !std::isxdigit(static_cast<unsigned char>(text_[pos_]))) {
        fail("expected " + std::to_string(digits) + " hex digits");
      }
      const char h = text_[pos_++];
      v = v * 16 + uint32_t(h <= '9' ? h - '0' : (h | 0x20) - 'a' + 10);
    }
    if (v > kMaxCodePoint) fail("a code point past U+10FFFF");
    return v;
  }

  // One character of a literal or class: an escape, or a UTF-8 encoded code point.
  uint32_t parse_char() {
    if (pos_ >= text_.size()) fail("unterminated literal or class");
    const unsigned char c = static_cast<unsigned char>(text_[pos_++]);
    if (c == '\\') {
      if (pos_ >= text_.size()) fail("unterminated escape");
      const char e = text_[pos_++];
      switch (e) {
        case 'n':
          return '\n';
        case 'r':
          return '\r';
        case 't':
          return '\t';
        case 'x':
          return parse_hex(2);
        case 'u':
          return parse_hex(4);
        case 'U':
          return parse_hex(8);
        case '\\':
        case '"':
        case '[':
        case ']':
        case '-':
        case '^':
          return uint32_t(e);
        default:
          fail(std::string("unknown escape '\\") + e + "'");
      }
    }
    if (c < 0x80) return c;
    const int n = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : -1;
    if (n < 0) fail("invalid UTF-8 in the grammar");
    uint32_t v = c & (0x3F >> n);
    for (int i = 0; i < n; ++i) {
      if (pos_ >= text_.size() || (static_cast<unsigned char>(text_[pos_]) & 0xC0) != 0x80) {
        fail("invalid UTF-8 in the grammar");
      }
      v = (v << 6) | (static_cast<unsigned char>(text_[pos_++]) & 0x3F);
    }
    return v;
  }

  Elements parse_literal() {
    ++pos_;  // the opening quote
    Elements out;
    while (pos_ < text_.size() && text_[pos_] != '"') append_utf8(parse_char(), out);
    if (pos_ >= text_.size()) fail("unterminated literal");
    ++pos_;
    return out;
  }

  std::vector<CodeRange> parse_class() {
    ++pos_;  // '['
    const bool negated = pos_ < text_.size() && text_[pos_] == '^';
    if (negated) ++pos_;
    std::vector<CodeRange> ranges;
    while (pos_ < text_.size() && text_[pos_] != ']') {
      const uint32_t lo = parse_char();
      uint32_t hi = lo;
      if (pos_ + 1 < text_.size() && text_[pos_] == '-' && text_[pos_ + 1] != ']') {
        ++pos_;
        hi = parse_char();
        if (hi < lo) fail("a class range runs backwards");
      }
      ranges.emplace_back(lo, hi);
    }
    if (pos_ >= text_.size()) fail("unterminated class");
    ++pos_;
    std::sort(ranges.begin(), ranges.end());
    return negated ? complement(ranges) : ranges;
  }

  static std::vector<CodeRange> complement(const std::vector<CodeRange>& sorted) {
    std::vector<CodeRange> out;
    uint32_t next = 0;
    for (const auto& [lo, hi] : sorted) {
      if (lo > next) out.emplace_back(next, lo - 1);
      next = std::max(next, hi + 1);
    }
    if (next <= kMaxCodePoint) out.emplace_back(next, kMaxCodePoint);
    return out;
  }

  // An ASCII-only class is one element; any other, a rule of its UTF-8 byte sequences.
  Elements class_elements(const std::string& rule, const std::vector<CodeRange>& ranges) {
    GrammarElement ascii;
    ascii.kind = GrammarElement::Kind::kBytes;
    std::vector<Elements> alternatives;
    for (const auto& [lo, hi] : ranges) {
      for (uint32_t c = lo; c <= std::min(hi, 0x7Fu); ++c) ascii.bytes.set(c);
      if (hi < 0x80) continue;
      for (const ByteSequence& seq : utf8_sequences(std::max(lo, 0x80u), hi)) {
        Elements alt;
        for (const auto& [a, b] : seq) {
          GrammarElement e;
          e.kind = GrammarElement::Kind::kBytes;
          for (uint32_t x = a; x <= b; ++x) e.bytes.set(x);
          alt.push_back(e);
        }
        alternatives.push_back(std::move(alt));
      }
    }
    if (alternatives.empty()) {
      if (ascii.bytes.none()) fail("a class that matches nothing");
      return {ascii};
    }
    if (ascii.bytes.any()) alternatives.push_back({ascii});
    count(alternatives.size() * 4);
    return {rule_element(new_rule(rule, std::move(alternatives)))};
  }

  int read_count() {
    const size_t start = pos_;
    long value = 0;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
      value = value * 10 + (text_[pos_++] - '0');
      if (value > Grammar::kMaxRepetition) {
        fail("a repetition count above " + std::to_string(Grammar::kMaxRepetition));
      }
    }
    if (pos_ == start) fail("expected a repetition count");
    return int(value);
  }

  // `item` with its postfix operator, if any, appended to `seq`.
  void apply_postfix(const std::string& rule, Elements& item, Elements& seq) {
    if (pos_ >= text_.size()) {
      seq.insert(seq.end(), item.begin(), item.end());
      return;
    }
    int min = 1, max = 1;  // max -1: unbounded
    const char c = text_[pos_];
    if (c == '*' || c == '+' || c == '?') {
      ++pos_;
      min = c == '+' ? 1 : 0;
      max = c == '?' ? 1 : -1;
    } else if (c == '{') {
      ++pos_;
      skip_space();
      min = read_count();
      skip_space();
      max = min;
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        skip_space();
        max = pos_ < text_.size() && text_[pos_] == '}' ? -1 : read_count();
        skip_space();
      }
      expect("}");
      if (max != -1 && max < min) fail("a repetition {m,n} with n < m");
    } else {
      seq.insert(seq.end(), item.begin(), item.end());
      return;
    }
    repeat(rule, item, min, max, seq);
  }

  void repeat(const std::string& rule, const Elements& item, int min, int max, Elements& seq) {
    for (int i = 0; i < min; ++i) {
      seq.insert(seq.end(), item.begin(), item.end());
      count(item.size());
    }
    if (max == -1) {  // star ::= item star | ""
      const int32_t star = new_rule(rule, {});
      Elements again = item;
      again.push_back(rule_element(star));
      rules_[size_t(star)] = {again, {}};
      seq.push_back(rule_element(star));
      return;
    }
    // up to k more: opt_k ::= item opt_{k-1} | "" (nested, so no prefix is ambiguous)
    int32_t tail = -1;
    for (int k = 0; k < max - min; ++k) {
      Elements more = item;
      if (tail >= 0) more.push_back(rule_element(tail));
      tail = new_rule(rule, {more, {}});
      count(more.size());
    }
    if (tail >= 0) seq.push_back(rule_element(tail));
  }

  void count(size_t elements) {
    elements_ += elements;
    if (elements_ > Grammar::kMaxElements) {
      fail("the grammar expands past " + std::to_string(Grammar::kMaxElements) +
           " elements (repetitions are unrolled): make it smaller");
    }
  }

  Grammar lower(int32_t root);

  std::string_view text_;
  size_t pos_ = 0;
  size_t elements_ = 0;
  std::map<std::string, int32_t> ids_;
  std::vector<std::string> names_;
  std::vector<std::vector<Elements>> rules_;
  std::vector<bool> defined_;
};

// Rules that can match the empty string (a fixpoint).
std::vector<bool> nullable_rules(const std::vector<std::vector<Elements>>& rules) {
  std::vector<bool> nullable(rules.size(), false);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t r = 0; r < rules.size(); ++r) {
      if (nullable[r]) continue;
      for (const Elements& alt : rules[r]) {
        const bool empty = std::all_of(alt.begin(), alt.end(), [&](const GrammarElement& e) {
          return e.kind == GrammarElement::Kind::kRule && nullable[size_t(e.rule)];
        });
        if (empty) {
          nullable[r] = changed = true;
          break;
        }
      }
    }
  }
  return nullable;
}

// A rule that can reach itself before consuming a byte would expand forever.
void check_left_recursion(const std::vector<std::vector<Elements>>& rules,
                          const std::vector<std::string>& names) {
  const std::vector<bool> nullable = nullable_rules(rules);
  std::vector<std::vector<int32_t>> first(
      rules.size());  // rules reachable at an alternative's start
  for (size_t r = 0; r < rules.size(); ++r) {
    for (const Elements& alt : rules[r]) {
      for (const GrammarElement& e : alt) {
        if (e.kind != GrammarElement::Kind::kRule) break;
        first[r].push_back(e.rule);
        if (!nullable[size_t(e.rule)]) break;
      }
    }
  }
  std::vector<int> state(rules.size(), 0);  // 0 new, 1 open, 2 done
  std::vector<std::pair<size_t, size_t>> stack;
  for (size_t start = 0; start < rules.size(); ++start) {
    if (state[start]) continue;
    stack.push_back({start, 0});
    state[start] = 1;
    while (!stack.empty()) {
      auto& [r, next] = stack.back();
      if (next == first[r].size()) {
        state[r] = 2;
        stack.pop_back();
        continue;
      }
      const size_t to = size_t(first[r][next++]);
      if (state[to] == 1) {
        throw GrammarError("rule '" + names[to] +
                           "' is left-recursive (it can reach itself before matching a "
                           "character); rewrite it with repetition");
      }
      if (state[to] == 0) {
        state[to] = 1;
        stack.push_back({to, 0});
      }
    }
  }
}

Grammar Parser::lower(int32_t root) {
  check_left_recursion(rules_, names_);
  Grammar g;
  g.root = root;
  g.rule_names = names_;
  g.alternatives.resize(rules_.size());
  for (size_t r = 0; r < rules_.size(); ++r) {
    for (const Elements& alt : rules_[r]) {
      g.alternatives[r].push_back(int32_t(g.elements.size()));
      g.elements.insert(g.elements.end(), alt.begin(), alt.end());
      g.elements.emplace_back();  // kEnd
    }
  }
  if (g.elements.size() > Grammar::kMaxElements) {
    throw GrammarError("the grammar has " + std::to_string(g.elements.size()) +
                       " elements; at most " + std::to_string(Grammar::kMaxElements));
  }
  return g;
}

}  // namespace

Grammar parse_gbnf(std::string_view text, std::string_view root) {
  return Parser(text).parse(root);
}

}  // namespace infergate
