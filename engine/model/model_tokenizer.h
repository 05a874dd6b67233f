// The one "tokenizer for this model" every command that takes text uses (generate, logits,
// serve, tokenize), so the same model turns the same text into the same ids everywhere: a GGUF
// file's own vocabulary and merges (SentencePiece "llama", or byte-level BPE "gpt2" split as its
// tokenizer.ggml.pre says), a safetensors directory's tokenizer.json, the byte tokenizer for the
// built-in synthetic models and for safetensors directories without tokenizer.json (a
// placeholder synthetic vocabulary), none when neither can be built.
#pragma once

#include <memory>
#include <string>

#include "engine/model/model_source.h"
#include "engine/tokenizer/chat_template.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

struct ModelTokenizer {
  std::unique_ptr<Tokenizer> tokenizer;  // null: token ids only
  bool add_bos = true;                   // GGUF tokenizer.ggml.add_bos_token
  // Which tokenizer, for the "tokenizer: ..." line every command prints, e.g.
  // "gguf llama (SentencePiece), 32000 tokens", "byte (synthetic model)", or, when tokenizer is
  // null, "none (token ids only): " and the reason.
  std::string description;
  // The model's chat template (GGUF's tokenizer.chat_template, tokenizer_config.json's or
  // chat_template.jinja), ChatML when it has none or it does not parse, and which, for the
  // "chat template: ..." line (e.g. "ChatML (the model has none)").
  ChatTemplate chat;
  std::string chat_description = "ChatML (the model has none)";
};

// `vocab`: the loaded model's vocabulary (synthetic and safetensors models).
ModelTokenizer load_model_tokenizer(const ModelSource& source, const Vocabulary& vocab);

}  // namespace infergate
