#include "engine/tokenizer/spm_tokenizer.h"

#include <algorithm>
#include <queue>

#include "engine/tokenizer/byte_piece.h"
#include "engine/tokenizer/merge_symbols.h"
#include "engine/tokenizer/utf8.h"

namespace infergate {

namespace {

constexpr std::string_view kSpaceMark = "\xE2\x96\x81";  // U+2581, SentencePiece's space

std::string replace_all(std::string_view text, std::string_view from, std::string_view to) {
  std::string out;
  for (size_t pos = 0; pos < text.size();) {
    if (text.compare(pos, from.size(), from) == 0) {
      out += to;
      pos += from.size();
    } else {
      out.push_back(text[pos++]);
    }
  }
  return out;
}

struct Bigram {
  int left;
  int right;
  float score;
  size_t size;  // of the merged piece; a stale entry no longer matches its symbols
};

// Highest score first; on ties the leftmost pair.
struct BigramOrder {
  bool operator()(const Bigram& a, const Bigram& b) const {
    return a.score < b.score || (a.score == b.score && a.left > b.left);
  }
};

}  // namespace

SpmTokenizer::SpmTokenizer(const Vocabulary& vocab, bool add_space_prefix)
    : Tokenizer(vocab), unk_id_(vocab.unk_id), add_space_prefix_(add_space_prefix) {
  byte_ids_.fill(-1);
  scores_.resize(vocab.size(), 0.0f);
  texts_.resize(vocab.size());
  for (size_t id = 0; id < vocab.size(); ++id) {
    const std::string& piece = vocab.tokens[id];
    const auto sid = static_cast<int32_t>(id);
    const TokenType type = id < vocab.types.size() ? vocab.types[id] : TokenType::kNormal;
    if (id < vocab.scores.size()) scores_[id] = vocab.scores[id];
    ids_.insert_or_assign(piece, sid);
    const int byte = byte_of_piece(piece);
    if (byte >= 0) {
      if (byte_ids_[static_cast<size_t>(byte)] < 0) byte_ids_[static_cast<size_t>(byte)] = sid;
      texts_[id] = std::string(1, static_cast<char>(byte));
    } else if (type != TokenType::kControl && type != TokenType::kUnknown &&
               type != TokenType::kUnused) {
      texts_[id] = replace_all(piece, kSpaceMark, " ");
    }
  }
}

int32_t SpmTokenizer::find(std::string_view piece) const {
  const auto it = ids_.find(std::string(piece));
  return it == ids_.end() ? -1 : it->second;
}

std::vector<int32_t> SpmTokenizer::encode(std::string_view raw, bool add_bos) const {
  std::vector<int32_t> out;
  if (add_bos) out.push_back(bos_id());
  if (raw.empty()) return out;
  const std::string text =
      replace_all(add_space_prefix_ ? " " + std::string(raw) : raw, " ", kSpaceMark);

  std::vector<MergeSymbol> symbols = utf8_symbols(text);

  std::priority_queue<Bigram, std::vector<Bigram>, BigramOrder> queue;
  auto try_add = [&](int left, int right) {
    if (left < 0 || right < 0) return;
    const size_t size = symbols[left].size + symbols[right].size;
    const int32_t id = find(std::string_view(text).substr(symbols[left].offset, size));
    if (id >= 0) queue.push({left, right, scores_[static_cast<size_t>(id)], size});
  };
  apply_merges(
      symbols, queue,
      [&](const Bigram& b) { return symbols[b.left].size + symbols[b.right].size != b.size; },
      try_add);

  for (int i = 0; i != -1; i = symbols[i].next) {
    const std::string_view piece =
        std::string_view(text).substr(symbols[i].offset, symbols[i].size);
    const int32_t id = find(piece);
    if (id >= 0) {
      out.push_back(id);
      continue;
    }
    for (char c : piece) {
      const int32_t byte_id = byte_ids_[static_cast<uint8_t>(c)];
      out.push_back(byte_id >= 0 ? byte_id : unk_id_);
    }
  }
  return out;
}

std::string SpmTokenizer::decode(std::span<const int32_t> ids) const {
  std::string text;
  bool strip_space = add_space_prefix_;
  for (int32_t id : ids) {
    std::string piece = decode_token(id);
    if (strip_space && !piece.empty()) {
      if (piece[0] == ' ') piece.erase(0, 1);
      strip_space = false;
    }
    text += piece;
  }
  return text;
}

std::string SpmTokenizer::decode_token(int32_t id) const {
  check_id(id);
  return texts_[static_cast<size_t>(id)];
}

}  // namespace infergate
