// The text <-> token-id interface of a model's vocabulary, and the choice of algorithm by the
// vocabulary's GGUF tokenizer.ggml.model: "llama" is SentencePiece-style (SpmTokenizer), "gpt2"
// byte-level BPE (HfTokenizer with the patterns of tokenizer.ggml.pre). Hugging Face
// tokenizer.json files build an HfTokenizer too (hf_tokenizer_json.h); synthetic models keep
// their ByteTokenizer.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/vocabulary.h"

namespace infergate {

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  // The ids of `text`, preceded by bos_id() when add_bos. Never fails: text the vocabulary
  // cannot spell falls back to byte tokens (or is dropped, as llama.cpp does; see subclasses).
  virtual std::vector<int32_t> encode(std::string_view text, bool add_bos) const = 0;

  // The text of `ids`: decode_token of each, concatenated (subclasses may adjust the start).
  virtual std::string decode(std::span<const int32_t> ids) const;

  // One token's text: a byte token's single raw byte (possibly part of a UTF-8 sequence),
  // "" for control, unknown and unused tokens. Throws std::out_of_range for a bad id.
  virtual std::string decode_token(int32_t id) const = 0;

  int32_t bos_id() const { return bos_id_; }
  int32_t eos_id() const { return eos_id_; }
  int32_t vocab_size() const { return vocab_size_; }

 protected:
  explicit Tokenizer(const Vocabulary& vocab);

  void check_id(int32_t id) const;  // throws std::out_of_range outside [0, vocab_size)

 private:
  int32_t bos_id_;
  int32_t eos_id_;
  int32_t vocab_size_;
};

// SpmTokenizer for model "llama", a byte-level BPE HfTokenizer for "gpt2" split by the
// pre-tokenizer GGUF names `pre` (gguf_pre_tokenizers.h); throws std::invalid_argument for any
// other model or an unknown `pre`. `add_space_prefix` is SentencePiece's (ignored by BPE).
// encode(text, true) puts the BOS token first for both.
std::unique_ptr<Tokenizer> make_tokenizer(const Vocabulary& vocab, const std::string& pre = "",
                                          bool add_space_prefix = true);

}  // namespace infergate
