#include "engine/tokenizer/added_tokens.h"

#include <unicode/uchar.h>

#include "engine/tokenizer/utf8.h"

namespace infergate {

namespace {

// The code point that ends just before byte `end` (> 0) of `text`.
uint32_t code_point_before(std::string_view text, size_t end) {
  size_t begin = end - 1;
  while (begin > 0 && end - begin < 4 && (static_cast<uint8_t>(text[begin]) & 0xC0) == 0x80) {
    --begin;
  }
  return utf8_next(text, begin).cp;
}

bool is_word_char(uint32_t cp) { return u_isalnum(static_cast<UChar32>(cp)) || cp == '_'; }
bool is_space(uint32_t cp) { return u_isUWhiteSpace(static_cast<UChar32>(cp)); }

}  // namespace

AddedTokenMatcher::AddedTokenMatcher(const std::vector<AddedToken>& tokens, bool normalized)
    : first_byte_(256, false) {
  token_at_node_.push_back(-1);
  for (const AddedToken& t : tokens) {
    if (t.normalized != normalized || t.content.empty()) continue;
    int node = 0;
    for (char c : t.content) {
      const uint64_t key = (static_cast<uint64_t>(node) << 8) | static_cast<uint8_t>(c);
      const auto [it, inserted] = edges_.try_emplace(key, static_cast<int>(token_at_node_.size()));
      if (inserted) token_at_node_.push_back(-1);
      node = it->second;
    }
    if (token_at_node_[static_cast<size_t>(node)] < 0) {
      token_at_node_[static_cast<size_t>(node)] = static_cast<int>(tokens_.size());
      tokens_.push_back(t);
      first_byte_[static_cast<uint8_t>(t.content[0])] = true;
    }
  }
}

AddedTokenMatcher::Match AddedTokenMatcher::longest_at(std::string_view text, size_t pos) const {
  Match best{pos, pos, -1};
  int node = 0;
  for (size_t i = pos; i < text.size(); ++i) {
    const uint64_t key = (static_cast<uint64_t>(node) << 8) | static_cast<uint8_t>(text[i]);
    const auto it = edges_.find(key);
    if (it == edges_.end()) break;
    node = it->second;
    const int token = token_at_node_[static_cast<size_t>(node)];
    if (token >= 0) best = {pos, i + 1, token};
  }
  return best;
}

bool AddedTokenMatcher::word_boundaries_hold(std::string_view text, const Match& m) const {
  const bool before = m.begin == 0 || !is_word_char(code_point_before(text, m.begin));
  const bool after = m.end == text.size() || !is_word_char(utf8_next(text, m.end).cp);
  return before && after;
}

std::vector<AddedTokenSegment> AddedTokenMatcher::split(std::string_view text) const {
  std::vector<AddedTokenSegment> out;
  size_t done = 0;  // text before this is in `out`
  auto emit_text = [&](size_t end) {
    if (end > done) out.push_back({std::string(text.substr(done, end - done)), -1, done});
  };
  for (size_t pos = 0; pos < text.size();) {
    if (!first_byte_[static_cast<uint8_t>(text[pos])]) {
      ++pos;
      continue;
    }
    Match m = longest_at(text, pos);
    if (m.token < 0) {
      ++pos;
      continue;
    }
    const AddedToken& t = tokens_[static_cast<size_t>(m.token)];
    if (t.single_word && !word_boundaries_hold(text, m)) {
      pos = m.end;
      continue;
    }
    size_t begin = m.begin;
    size_t end = m.end;
    while (t.lstrip && begin > done && is_space(code_point_before(text, begin))) {
      begin -= utf8_encode(code_point_before(text, begin)).size();
    }
    while (t.rstrip && end < text.size() && is_space(utf8_next(text, end).cp)) {
      end += utf8_next(text, end).size;
    }
    emit_text(begin);
    out.push_back({"", t.id, begin});
    done = pos = end;
  }
  emit_text(text.size());
  return out;
}

}  // namespace infergate
