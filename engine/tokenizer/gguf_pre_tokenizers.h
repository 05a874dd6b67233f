// GGUF's tokenizer.ggml.pre: the name of a BPE vocabulary's pre-tokenizer, which GGUF stores
// instead of its patterns. Each name llama.cpp's common models write maps to the split patterns
// of the model's own tokenizer.json (applied in order, each match a piece), so a GGUF and its
// Hugging Face original split text alike; an unknown name is refused, never guessed.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/tokenizer/hf_tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

struct GgufPreTokenizer {
  std::vector<std::string> patterns;
  bool ignore_merges = false;    // Llama 3's vocabularies: a word that is a token stays whole
  bool default_add_bos = false;  // llama.cpp adds BOS for these when the file does not say
};

// The pre-tokenizer `name` stands for ("" and "default": llama.cpp's fallback patterns, as
// llama.cpp uses them for files that name none). Throws std::invalid_argument listing the
// supported names.
GgufPreTokenizer gguf_pre_tokenizer(const std::string& name);

// The name GGUF files give the pre-tokenizer that splits by `patterns` (in order) with
// `ignore_merges` (the first of llama.cpp's names for it), for writing a tokenizer.json as GGUF;
// nullopt when no name stands for them.
std::optional<std::string> gguf_pre_tokenizer_name(const std::vector<std::string>& patterns,
                                                   bool ignore_merges);

// A byte-level BPE tokenizer of a GGUF "gpt2" vocabulary: its merges, `pre`'s patterns, its
// control and user-defined tokens matched whole in text, BOS before the text when `add_bos`.
std::unique_ptr<HfTokenizer> make_gguf_bpe_tokenizer(const Vocabulary& vocab,
                                                     const GgufPreTokenizer& pre, bool add_bos);

}  // namespace infergate
