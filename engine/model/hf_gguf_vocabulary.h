// A Hugging Face tokenizer.json as a GGUF vocabulary, so that a GGUF written from a safetensors
// directory is tokenized by llama.cpp and by infergate as Hugging Face tokenizes the original:
// byte-level BPE ("gpt2": tokens, merges, added tokens as control or user-defined), the
// pre-tokenizer by the name GGUF gives its split patterns (tokenizer.ggml.pre), BOS as the
// post-processor or tokenizer_config.json adds it, and the chat template. What GGUF cannot say is
// refused naming the file and the JSON path; only an NFC normalizer is let go, as llama.cpp's own
// converter does (GGUF has no normalizer: text not in NFC then splits otherwise).
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/model_source.h"
#include "engine/model/model_weights.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

// `dir`'s tokenizer.json (and tokenizer_config.json, chat_template.jinja) as `vocab_size` GGUF
// tokens (ids the tokenizer leaves free are "[PAD<id>]", unused). Throws std::invalid_argument.
Vocabulary gguf_vocabulary_of_hf(const std::string& dir, int32_t vocab_size);

// What a GGUF written from `w`, loaded from `source`, carries: a safetensors directory's
// tokenizer.json, converted, when it has one; the loaded vocabulary otherwise.
Vocabulary vocabulary_for_gguf(const ModelWeights& w, const ModelSource& source);

}  // namespace infergate
