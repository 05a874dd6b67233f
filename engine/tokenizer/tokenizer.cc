#include "engine/tokenizer/tokenizer.h"

#include <stdexcept>

#include "engine/tokenizer/gguf_pre_tokenizers.h"
#include "engine/tokenizer/spm_tokenizer.h"

namespace infergate {

Tokenizer::Tokenizer(const Vocabulary& vocab)
    : bos_id_(vocab.bos_id),
      eos_id_(vocab.eos_id),
      vocab_size_(static_cast<int32_t>(vocab.size())) {}

std::string Tokenizer::decode(std::span<const int32_t> ids) const {
  std::string text;
  for (int32_t id : ids) text += decode_token(id);
  return text;
}

void Tokenizer::check_id(int32_t id) const {
  if (id < 0 || id >= vocab_size_) {
    throw std::out_of_range("token id " + std::to_string(id) + " is outside the " +
                            std::to_string(vocab_size_) + "-token vocabulary");
  }
}

std::unique_ptr<Tokenizer> make_tokenizer(const Vocabulary& vocab, const std::string& pre,
                                          bool add_space_prefix) {
  if (vocab.model == "llama") return std::make_unique<SpmTokenizer>(vocab, add_space_prefix);
  if (vocab.model == "gpt2") return make_gguf_bpe_tokenizer(vocab, gguf_pre_tokenizer(pre), true);
  throw std::invalid_argument("unsupported tokenizer model '" + vocab.model +
                              "' (supported: llama, gpt2)");
}

}  // namespace infergate
