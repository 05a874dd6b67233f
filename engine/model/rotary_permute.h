// The Q/K row order llama.cpp expects for arch "llama". Hugging Face checkpoints rotate halves
// (pair i is rows i and i + head_dim/2 of each head); llama.cpp's converter
// (convert_hf_to_gguf.py, LlamaModel.permute) interleaves them (pair i is rows 2i and 2i + 1):
//   w.reshape(n_head, 2, rows / n_head / 2, cols).swapaxes(1, 2).reshape(rows, cols)
// ModelWeights keeps HF's order, so GGUF readers undo this and GGUF writers apply it.
#pragma once

#include "kernels/tensor.h"

namespace infergate {

// HF -> llama.cpp: row (h, j * half + i) moves to row (h, 2 * i + j). Works on any dtype
// whose rows are whole bytes (q8_0 rows must be whole blocks) and on 1-D biases.
Tensor permute_rotary_rows(const Tensor& w, int num_heads);
// llama.cpp -> HF, the inverse.
Tensor unpermute_rotary_rows(const Tensor& w, int num_heads);

}  // namespace infergate
