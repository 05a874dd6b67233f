#include "engine/tokenizer/bpe_tokenizer.h"

#include <algorithm>
#include <queue>
#include <stdexcept>

#include "engine/tokenizer/gpt2_byte_map.h"
#include "engine/tokenizer/gpt2_pre_tokenizer.h"
#include "engine/tokenizer/merge_symbols.h"
#include "engine/tokenizer/utf8.h"

namespace infergate {

namespace {

struct Bigram {
  int left;
  int right;
  int rank;
  std::string text;  // the merged piece; a stale entry no longer matches its symbols
};

// Lowest rank first; on ties the leftmost pair.
struct BigramOrder {
  bool operator()(const Bigram& a, const Bigram& b) const {
    return a.rank > b.rank || (a.rank == b.rank && a.left > b.left);
  }
};

}  // namespace

BpeTokenizer::BpeTokenizer(const Vocabulary& vocab) : Tokenizer(vocab) {
  texts_.resize(vocab.size());
  for (size_t id = 0; id < vocab.size(); ++id) {
    const std::string& piece = vocab.tokens[id];
    ids_.insert_or_assign(piece, static_cast<int32_t>(id));
    const TokenType type = id < vocab.types.size() ? vocab.types[id] : TokenType::kNormal;
    if (type != TokenType::kControl && type != TokenType::kUnknown && type != TokenType::kUnused) {
      texts_[id] = gpt2_text_to_bytes(piece);
    }
  }
  for (size_t i = 0; i < vocab.merges.size(); ++i) {
    const std::string& merge = vocab.merges[i];
    // From 1: a merge's left piece is never empty, and may itself be a space in raw vocabs.
    const size_t space = merge.find(' ', 1);
    if (space == std::string::npos) {
      throw std::invalid_argument("BPE merge " + std::to_string(i) + " '" + merge +
                                  "' is not two pieces separated by a space");
    }
    ranks_.try_emplace(merge, static_cast<int>(i));  // the first of duplicates wins
  }
}

int32_t BpeTokenizer::find(std::string_view piece) const {
  const auto it = ids_.find(std::string(piece));
  return it == ids_.end() ? -1 : it->second;
}

int BpeTokenizer::rank(std::string_view left, std::string_view right) const {
  std::string key;
  key.reserve(left.size() + 1 + right.size());
  key.append(left).append(" ").append(right);
  const auto it = ranks_.find(key);
  return it == ranks_.end() ? -1 : it->second;
}

std::vector<int32_t> BpeTokenizer::encode(std::string_view text, bool add_bos) const {
  std::vector<int32_t> out;
  if (add_bos) out.push_back(bos_id());
  for (const std::string& word : gpt2_pre_tokenize(text))
    encode_word(gpt2_bytes_to_text(word), out);
  return out;
}

void BpeTokenizer::encode_word(const std::string& word, std::vector<int32_t>& out) const {
  std::vector<MergeSymbol> symbols = utf8_symbols(word);
  auto piece = [&](int i) {
    return std::string_view(word).substr(symbols[i].offset, symbols[i].size);
  };

  std::priority_queue<Bigram, std::vector<Bigram>, BigramOrder> queue;
  auto try_add = [&](int left, int right) {
    if (left < 0 || right < 0) return;
    const int r = rank(piece(left), piece(right));
    if (r >= 0) queue.push({left, right, r, std::string(piece(left)).append(piece(right))});
  };
  apply_merges(
      symbols, queue,
      [&](const Bigram& b) { return std::string(piece(b.left)).append(piece(b.right)) != b.text; },
      try_add);

  for (int i = 0; !symbols.empty() && i != -1; i = symbols[i].next) {
    const int32_t id = find(piece(i));
    if (id >= 0) {
      out.push_back(id);
      continue;
    }
    // As llama.cpp: each byte of the piece as a one-byte token, where there is one.
    for (char c : piece(i)) {
      const int32_t byte_id = find(std::string_view(&c, 1));
      if (byte_id >= 0) out.push_back(byte_id);
    }
  }
}

std::string BpeTokenizer::decode_token(int32_t id) const {
  check_id(id);
  return texts_[static_cast<size_t>(id)];
}

}  // namespace infergate
