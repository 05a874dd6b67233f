#include "engine/tokenizer/hf_tokenizer.h"

namespace infergate {

HfTokenizer::HfTokenizer(const Vocabulary& vocab, HfTokenizerParts parts)
    : Tokenizer(vocab),
      parts_(std::move(parts)),
      raw_matcher_(parts_.added_tokens, false),
      normalized_matcher_(parts_.added_tokens, true),
      pieces_(vocab.tokens),
      special_(vocab.size(), false) {
  for (const AddedToken& t : parts_.added_tokens) {
    if (t.special && t.id >= 0 && static_cast<size_t>(t.id) < special_.size()) {
      special_[static_cast<size_t>(t.id)] = true;
    }
  }
}

void HfTokenizer::encode_stretch(const AddedTokenSegment& stretch, bool at_text_start,
                                 std::vector<int32_t>& out) const {
  const std::string normalized = normalize_text(parts_.normalizers, stretch.text);
  for (const AddedTokenSegment& s : normalized_matcher_.split(normalized)) {
    if (s.id >= 0) {
      out.push_back(s.id);
      continue;
    }
    const bool start = at_text_start && s.offset == 0;
    for (const PreTokenPiece& word : pre_tokenize(parts_.pre_tokenizers, s.text, start)) {
      parts_.model->encode_word(word.text, out);
    }
  }
}

std::vector<int32_t> HfTokenizer::encode(std::string_view text, bool add_bos) const {
  std::vector<int32_t> out;
  if (add_bos) out = parts_.prefix_ids;
  for (const AddedTokenSegment& s : raw_matcher_.split(text)) {
    if (s.id >= 0) {
      out.push_back(s.id);
    } else {
      encode_stretch(s, s.offset == 0, out);
    }
  }
  if (add_bos) out.insert(out.end(), parts_.suffix_ids.begin(), parts_.suffix_ids.end());
  return out;
}

bool HfTokenizer::skipped(int32_t id) const { return special_[static_cast<size_t>(id)]; }

std::string HfTokenizer::decode_token(int32_t id) const {
  check_id(id);
  return skipped(id) ? std::string() : parts_.decoder.token_text(pieces_[static_cast<size_t>(id)]);
}

std::string HfTokenizer::decode(std::span<const int32_t> ids) const {
  std::vector<std::string> pieces;
  pieces.reserve(ids.size());
  for (int32_t id : ids) {
    check_id(id);
    if (!skipped(id)) pieces.push_back(pieces_[static_cast<size_t>(id)]);
  }
  return parts_.decoder.text(pieces);
}

}  // namespace infergate
