#include "engine/tokenizer/bpe_model.h"

#include <cstdio>
#include <queue>
#include <stdexcept>

#include "engine/tokenizer/utf8.h"

namespace infergate {

namespace {

uint64_t pair_key(int32_t left, int32_t right) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) | static_cast<uint32_t>(right);
}

struct Candidate {
  int32_t rank;
  int pos;
  int32_t id;
};

// Lowest rank first; on ties the leftmost pair.
struct CandidateOrder {
  bool operator()(const Candidate& a, const Candidate& b) const {
    return a.rank > b.rank || (a.rank == b.rank && a.pos > b.pos);
  }
};

}  // namespace

BpeModel::BpeModel(PieceIds vocab, const std::vector<std::pair<std::string, std::string>>& merges,
                   BpeOptions options)
    : vocab_(std::move(vocab)), options_(options) {
  merges_.reserve(merges.size());
  for (size_t rank = 0; rank < merges.size(); ++rank) {
    const auto& [left, right] = merges[rank];
    const int32_t l = find(left);
    const int32_t r = find(right);
    const int32_t merged = find(left + right);
    if (l < 0 || r < 0 || merged < 0) {
      throw std::invalid_argument("merge " + std::to_string(rank) + " ('" + left + "', '" + right +
                                  "'): '" +
                                  (l < 0   ? left
                                   : r < 0 ? right
                                           : left + right) +
                                  "' is not in the vocabulary");
    }
    merges_.try_emplace(pair_key(l, r), Merge{static_cast<int32_t>(rank), merged});
  }
  byte_ids_.assign(256, -1);
  char name[8];
  for (int b = 0; b < 256; ++b) {
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    byte_ids_[static_cast<size_t>(b)] = find(name);
  }
  small_char_ids_.assign(0x800, -1);
  for (uint32_t cp = 0; cp < 0x800; ++cp) small_char_ids_[cp] = find(utf8_encode(cp));
}

int32_t BpeModel::find(std::string_view piece) const {
  const auto it = vocab_.find(piece);
  return it == vocab_.end() ? -1 : it->second;
}

const BpeModel::Merge* BpeModel::merge_of(int32_t left, int32_t right) const {
  const auto it = merges_.find(pair_key(left, right));
  return it == merges_.end() ? nullptr : &it->second;
}

void BpeModel::initial_symbols(std::string_view word, std::vector<Symbol>& symbols) const {
  auto push = [&](int32_t id) {
    symbols.push_back({id, static_cast<int>(symbols.size()) - 1, -1, true});
  };
  bool previous_unk = false;
  for (size_t pos = 0; pos < word.size();) {
    const Utf8Char c = utf8_next(word, pos);
    const std::string_view text = word.substr(pos, c.size);
    pos += c.size;
    const bool small = c.cp < 0x800 && (c.size > 1 || c.cp < 0x80);  // not a malformed byte
    const int32_t id = small ? small_char_ids_[c.cp] : find(text);
    if (id >= 0) {
      push(id);
      previous_unk = false;
      continue;
    }
    bool bytes_known = options_.byte_fallback;
    for (char b : text) bytes_known = bytes_known && byte_ids_[static_cast<uint8_t>(b)] >= 0;
    if (bytes_known) {
      for (char b : text) push(byte_ids_[static_cast<uint8_t>(b)]);
      previous_unk = false;
    } else if (options_.unk_id >= 0 && !(options_.fuse_unk && previous_unk)) {
      push(options_.unk_id);
      previous_unk = true;
    }
  }
  for (size_t i = 0; i + 1 < symbols.size(); ++i) symbols[i].next = static_cast<int>(i + 1);
}

void BpeModel::merge_all(std::vector<Symbol>& symbols) const {
  std::priority_queue<Candidate, std::vector<Candidate>, CandidateOrder> queue;
  auto offer = [&](int left) {
    if (left < 0 || symbols[static_cast<size_t>(left)].next < 0) return;
    const Symbol& l = symbols[static_cast<size_t>(left)];
    const Merge* m = merge_of(l.id, symbols[static_cast<size_t>(l.next)].id);
    if (m != nullptr) queue.push({m->rank, left, m->id});
  };
  for (int i = 0; i + 1 < static_cast<int>(symbols.size()); ++i) offer(i);
  while (!queue.empty()) {
    const Candidate c = queue.top();
    queue.pop();
    Symbol& left = symbols[static_cast<size_t>(c.pos)];
    if (!left.alive || left.next < 0) continue;
    Symbol& right = symbols[static_cast<size_t>(left.next)];
    const Merge* m = merge_of(left.id, right.id);
    if (m == nullptr || m->id != c.id) continue;  // stale: a side changed since it was queued
    left.id = c.id;
    right.alive = false;
    left.next = right.next;
    if (right.next >= 0) symbols[static_cast<size_t>(right.next)].prev = c.pos;
    offer(left.prev);
    offer(c.pos);
  }
}

void BpeModel::encode_word(std::string_view word, std::vector<int32_t>& out) const {
  if (options_.ignore_merges) {
    const int32_t whole = find(word);
    if (whole >= 0) {
      out.push_back(whole);
      return;
    }
  }
  std::vector<Symbol> symbols;
  symbols.reserve(word.size());
  initial_symbols(word, symbols);
  merge_all(symbols);
  for (const Symbol& s : symbols) {
    if (s.alive) out.push_back(s.id);
  }
}

}  // namespace infergate
