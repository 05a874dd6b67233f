#include "engine/grammar/token_grammar.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <unordered_map>

namespace infergate {

TokenGrammar::TokenGrammar(std::shared_ptr<const Grammar> grammar,
                           std::shared_ptr<const TokenTrie> vocabulary)
    : grammar_(std::move(grammar)), vocabulary_(std::move(vocabulary)) {}

std::shared_ptr<const std::vector<bool>> TokenGrammar::allowed(const GrammarMatcher& state) const {
  std::string key = state.state_key();
  {
    const std::lock_guard lock(mutex_);
    ++stats_.masks;
    const auto it = cache_.find(key);
    if (it != cache_.end()) {
      ++stats_.cache_hits;
      return it->second;
    }
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::shared_ptr<const std::vector<bool>> mask = compute(state);
  const auto ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0)
          .count();
  const std::lock_guard lock(mutex_);
  stats_.compute_ns += ns;
  if (cache_.size() >= kMaxCachedMasks) cache_.clear();  // bounded; states soon recur
  cache_.emplace(std::move(key), mask);
  return mask;
}

namespace {

// The grammar states one mask's walk reaches, each kept once: most trie nodes lead to a state
// already seen (inside a JSON string every character leads back to the same one), so a byte is
// stepped once per distinct state rather than once per trie node, and the walk holds state ids,
// not copies of parse stacks.
class StateWalk {
 public:
  explicit StateWalk(const GrammarMatcher& start) { intern(start); }

  // The state after `byte` from state `id`, or -1 when no parse takes it.
  int32_t after(int32_t id, uint8_t byte) {
    const uint64_t key = (uint64_t(id) << 8) | byte;
    const auto it = steps_.find(key);
    if (it != steps_.end()) return it->second;
    std::optional<GrammarMatcher> moved = states_[size_t(id)].after(byte);
    const int32_t next = moved ? intern(std::move(*moved)) : -1;
    steps_.emplace(key, next);
    return next;
  }
  // The bytes some parse of state `id` takes next.
  std::bitset<256> next_bytes(int32_t id) const { return next_bytes_[size_t(id)]; }

 private:
  int32_t intern(GrammarMatcher state) {
    const auto [it, added] = ids_.try_emplace(state.state_key(), int32_t(states_.size()));
    if (added) {
      next_bytes_.push_back(state.next_bytes());
      states_.push_back(std::move(state));
    }
    return it->second;
  }

  std::vector<GrammarMatcher> states_;
  std::vector<std::bitset<256>> next_bytes_;
  std::unordered_map<std::string, int32_t> ids_;  // state_key -> id
  std::unordered_map<uint64_t, int32_t> steps_;   // (id, byte) -> id, -1 refused
};

}  // namespace

// Depth-first over the trie, each node's grammar state the parent's advanced by one byte; a
// branch whose byte the grammar refuses is never entered.
std::shared_ptr<const std::vector<bool>> TokenGrammar::compute(const GrammarMatcher& state) const {
  auto mask = std::make_shared<std::vector<bool>>(size_t(vocabulary_->vocab_size()), false);
  const std::vector<TokenTrie::Node>& nodes = vocabulary_->nodes();
  StateWalk walk(state);
  std::vector<std::pair<int32_t, int32_t>> pending{{0, 0}};  // (trie node, state id)
  while (!pending.empty()) {
    const auto [node, at] = pending.back();
    pending.pop_back();
    const std::bitset<256> next = walk.next_bytes(at);
    for (const auto& [byte, child] : nodes[size_t(node)].children) {
      if (!next.test(byte)) continue;
      const int32_t moved = walk.after(at, byte);
      if (moved < 0) continue;
      for (int32_t token : nodes[size_t(child)].tokens) (*mask)[size_t(token)] = true;
      if (!nodes[size_t(child)].children.empty()) pending.emplace_back(child, moved);
    }
  }
  return mask;
}

namespace {

constexpr size_t kMaxForcedBytes = 256;

std::string forced_bytes(GrammarMatcher state) {
  std::string bytes;
  while (bytes.size() < kMaxForcedBytes && !state.complete()) {
    const std::bitset<256> next = state.next_bytes();
    if (next.count() != 1) break;
    uint8_t byte = 0;
    while (!next.test(byte)) ++byte;
    if (!state.accept(byte)) break;
    bytes.push_back(char(byte));
  }
  return bytes;
}

}  // namespace

std::vector<int32_t> TokenGrammar::forced_tokens(const GrammarMatcher& state,
                                                 int max_tokens) const {
  const std::string bytes = forced_bytes(state);
  const std::vector<TokenTrie::Node>& nodes = vocabulary_->nodes();
  std::vector<int32_t> tokens;
  for (size_t at = 0; at < bytes.size() && int(tokens.size()) < max_tokens;) {
    int32_t node = 0, best = -1;
    size_t best_length = 0;
    for (size_t i = at; i < bytes.size(); ++i) {
      const auto& children = nodes[size_t(node)].children;
      const auto it = std::lower_bound(children.begin(), children.end(),
                                       std::make_pair(uint8_t(bytes[i]), int32_t(0)));
      if (it == children.end() || it->first != uint8_t(bytes[i])) break;
      node = it->second;
      if (!nodes[size_t(node)].tokens.empty()) {
        best = nodes[size_t(node)].tokens.front();
        best_length = i + 1 - at;
      }
    }
    if (best < 0) break;
    tokens.push_back(best);
    at += best_length;
  }
  return tokens;
}

bool TokenGrammar::advance(GrammarMatcher& state, int32_t token) const {
  if (token < 0 || token >= vocabulary_->vocab_size()) return false;
  const std::string& bytes = vocabulary_->bytes(token);
  return !bytes.empty() && state.accept(bytes);
}

TokenMaskStats TokenGrammar::stats() const {
  const std::lock_guard lock(mutex_);
  return stats_;
}

}  // namespace infergate
