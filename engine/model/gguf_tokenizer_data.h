// Reads only the tokenizer of a GGUF file (the tokenizer.ggml.* metadata, no tensors), so a
// tokenizer can be built without loading weights. read_gguf() reads the same vocabulary into
// ModelWeights::vocab; this adds the flags that choose how text is encoded.
#pragma once

#include <string>

#include "engine/tokenizer/vocabulary.h"

namespace infergate {

struct GgufTokenizerData {
  Vocabulary vocab;
  std::string pre;  // tokenizer.ggml.pre ("" when absent): the pre-tokenizer name
  // tokenizer.ggml.add_bos_token; default: true for "llama" and the pre-tokenizers llama.cpp
  // adds BOS for (Llama 3's)
  bool add_bos = true;
  bool add_space_prefix = true;  // tokenizer.ggml.add_space_prefix ("llama" only)
  std::string chat_template;     // tokenizer.chat_template ("" when absent)
};

// Throws ModelLoadError naming `path` for a file that is not GGUF, lacks tokenizer.ggml.model
// or .tokens, or has per-token arrays or special token ids that disagree with the tokens.
GgufTokenizerData read_gguf_tokenizer(const std::string& path);

}  // namespace infergate
