// Exports ModelWeights as a GGUF v3 file that llama.cpp loads as arch "llama": the llama.*
// hyper-parameters, the tokenizer.ggml.* vocabulary, and every tensor in its in-memory dtype
// (F32, F16, BF16, Q8_0) with dims reversed (ne[0] is the row length), Q/K rows permuted to
// llama.cpp's order, and data aligned to general.alignment. Written atomically.
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/gguf_format.h"
#include "engine/model/model_weights.h"

namespace infergate {

struct GgufWriteOptions {
  uint32_t alignment = kGgufDefaultAlignment;  // a power of two, at least 8 (the spec)
};

// Throws std::invalid_argument for weights GGUF cannot hold (a Q8_0 row that is not whole
// blocks, a vocabulary of the wrong size) and std::runtime_error naming `path` on I/O errors.
// A model loaded without a vocabulary is written with synthetic_vocabulary(vocab_size).
void write_gguf(const ModelWeights& weights, const std::string& path,
                const GgufWriteOptions& options = {});

}  // namespace infergate
