#include "fuzz/served_model_shapes.h"

#include <cstdint>

#include "fuzz/text_tokenizers.h"

namespace infergate::fuzz {

namespace {

ServedModel text_model(const char* name, const Tokenizer& tokenizer, int max_model_len,
                       bool add_bos) {
  return {name, tokenizer.vocab_size(), max_model_len, &tokenizer, add_bos};
}

}  // namespace

const std::vector<ServedModel>& served_model_shapes() {
  static const std::vector<ServedModel> shapes = {
      // The built-in synthetic models' byte tokenizer with a 64-token context: text of 62 bytes
      // or more (a BOS and a token per byte, then max_tokens) cannot fit, and only chats with
      // a few bytes of content fit beside ChatML's markers.
      text_model("tiny", byte_tokenizer(), 64, /*add_bos=*/true),
      // GGUF-style text tokenizers, room for long text; GPT-2 adds no BOS.
      text_model("llama-spm", spm_tokenizer(), 2048, /*add_bos=*/true),
      text_model("gpt2-bpe", bpe_tokenizer(), 2048, /*add_bos=*/false),
      // A vocabulary that cannot spell every character (text_tokenizers.h).
      text_model("gpt2-partial", partial_bpe_tokenizer(), 2048, /*add_bos=*/false),
      // Token ids only (a model without a tokenizer infergate can use).
      {"ids-only", 128, 4096, nullptr},
      // The smallest shape: one token id and a context of two, so only a one-token prompt with
      // max_tokens 1 fits; an empty model name.
      {"", 1, 2, nullptr},
      // Extremes of the int32 fields, for overflow in length arithmetic.
      {"big", INT32_MAX, INT32_MAX, nullptr},
  };
  return shapes;
}

}  // namespace infergate::fuzz
