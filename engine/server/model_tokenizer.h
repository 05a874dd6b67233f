// The text tokenizer the server uses for a model: the byte tokenizer for the built-in synthetic
// models, the GGUF file's own vocabulary and merges for GGUF models (SentencePiece "llama" or
// byte-level BPE "gpt2"), none otherwise (those models take token ids only).
#pragma once

#include <memory>
#include <string>

#include "engine/model/model_loader.h"
#include "engine/tokenizer/tokenizer.h"

namespace infergate {

struct ModelTokenizer {
  std::unique_ptr<Tokenizer> tokenizer;  // null: token ids only
  bool add_bos = true;                   // GGUF tokenizer.ggml.add_bos_token
  std::string why_none;                  // when tokenizer is null: the reason, for the log
};

// `vocab`: the loaded model's vocabulary (synthetic models).
ModelTokenizer load_model_tokenizer(const ModelSource& source, const Vocabulary& vocab);

}  // namespace infergate
