// A tokenizer assembled as Hugging Face's tokenizers assemble one from tokenizer.json: added
// tokens are cut out of the raw text (then, in each stretch, normalized, and the normalized
// added tokens cut out), each stretch is pre-tokenized into words, each word is BPE-encoded, and
// the post-processor's tokens (BOS) go around the whole. The GGUF BPE vocabularies are built
// into the same parts (gguf_pre_tokenizers.h), so both formats encode alike.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/added_tokens.h"
#include "engine/tokenizer/bpe_model.h"
#include "engine/tokenizer/pre_tokenizer.h"
#include "engine/tokenizer/text_normalizer.h"
#include "engine/tokenizer/token_decoder.h"
#include "engine/tokenizer/tokenizer.h"

namespace infergate {

struct HfTokenizerParts {
  std::vector<TextNormalizer> normalizers;
  std::vector<PreTokenizerStep> pre_tokenizers;
  std::unique_ptr<BpeModel> model;
  std::vector<AddedToken> added_tokens;
  TokenDecoder decoder;
  std::vector<int32_t> prefix_ids;  // what adding special tokens puts before the text (BOS)
  std::vector<int32_t> suffix_ids;  // ... and after it (EOS, where a model adds one)
};

class HfTokenizer : public Tokenizer {
 public:
  // `vocab`: every id's piece and type (the model's vocabulary with the added tokens), its BOS
  // and EOS ids; the parts do the work.
  HfTokenizer(const Vocabulary& vocab, HfTokenizerParts parts);

  // `add_bos`: add the post-processor's special tokens (prefix and suffix ids).
  std::vector<int32_t> encode(std::string_view text, bool add_bos) const override;
  // Special added tokens decode to "" (as Hugging Face's decode with skip_special_tokens).
  std::string decode_token(int32_t id) const override;
  std::string decode(std::span<const int32_t> ids) const override;

  const std::vector<int32_t>& prefix_ids() const { return parts_.prefix_ids; }
  const std::vector<int32_t>& suffix_ids() const { return parts_.suffix_ids; }

 private:
  void encode_stretch(const AddedTokenSegment& stretch, bool at_text_start,
                      std::vector<int32_t>& out) const;
  bool skipped(int32_t id) const;

  HfTokenizerParts parts_;
  AddedTokenMatcher raw_matcher_;
  AddedTokenMatcher normalized_matcher_;
  std::vector<std::string> pieces_;  // id -> piece
  std::vector<bool> special_;        // id -> a special added token
};

}  // namespace infergate
