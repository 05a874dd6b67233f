// A GGUF's byte-level BPE vocabulary ("gpt2") as Hugging Face tokenizer files, the inverse of
// hf_gguf_vocabulary.h, so that a safetensors directory written from a GGUF is tokenized as the
// GGUF is, by infergate and by Hugging Face's `tokenizers`: every token but the unused ones in
// the BPE model's vocab (Hugging Face renumbers an added token its model lacks), with the merges;
// control tokens also as special added tokens and user-defined ones as plain added tokens; the
// split patterns tokenizer.ggml.pre names as Split steps before ByteLevel; BOS through the
// post-processor when the GGUF adds it; and the chat template.
#pragma once

#include <nlohmann/json.hpp>

#include "engine/model/gguf_tokenizer_data.h"

namespace infergate {

struct HfTokenizerDocuments {
  nlohmann::json tokenizer;  // tokenizer.json
  nlohmann::json config;     // tokenizer_config.json
};

// Throws std::invalid_argument saying what tokenizer.json cannot hold: a SentencePiece
// ("llama") vocabulary, a pre-tokenizer name not supported, a piece at two ids.
HfTokenizerDocuments hf_tokenizer_of_gguf(const GgufTokenizerData& gguf);

}  // namespace infergate
