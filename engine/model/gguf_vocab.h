// The tokenizer.ggml.* vocabulary of a GGUF file: tokens, scores, types, merges and special ids,
// checked against each other (per-token arrays one entry per token, ids inside the vocabulary).
#pragma once

#include "engine/model/gguf_file.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {

// Throws ModelLoadError naming the file and the metadata key.
Vocabulary read_gguf_vocab(const GgufFile& g);

}  // namespace infergate
