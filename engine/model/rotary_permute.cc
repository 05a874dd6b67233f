#include "engine/model/rotary_permute.h"

#include <cstring>
#include <stdexcept>
#include <string>

namespace infergate {

namespace {

// Copies rows so that out row `to(r)` = in row r, for the per-head HF -> GGUF map.
Tensor move_rows(const Tensor& w, int num_heads, bool to_gguf) {
  const int64_t rows = w.shape().empty() ? 0 : w.dim(0);
  if (num_heads <= 0 || rows % (2 * int64_t(num_heads)) != 0) {
    throw std::invalid_argument("rotary permute: " + std::to_string(rows) +
                                " rows do not split into " + std::to_string(num_heads) +
                                " heads of even size");
  }
  const size_t row_bytes = w.nbytes() / size_t(rows);
  if (row_bytes * size_t(rows) != w.nbytes()) {
    throw std::invalid_argument("rotary permute: rows of " + w.shape_string() +
                                " are not whole bytes in " + dtype_name(w.dtype()));
  }
  const int64_t head_dim = rows / num_heads, half = head_dim / 2;
  Tensor out = Tensor::zeros(w.dtype(), w.shape());
  const uint8_t* src = static_cast<const uint8_t*>(w.raw());
  uint8_t* dst = static_cast<uint8_t*>(out.mutable_raw());
  for (int64_t h = 0; h < num_heads; ++h) {
    for (int64_t j = 0; j < 2; ++j) {
      for (int64_t i = 0; i < half; ++i) {
        const int64_t hf = h * head_dim + j * half + i, gguf = h * head_dim + 2 * i + j;
        const int64_t from = to_gguf ? hf : gguf, to = to_gguf ? gguf : hf;
        std::memcpy(dst + size_t(to) * row_bytes, src + size_t(from) * row_bytes, row_bytes);
      }
    }
  }
  return out;
}

}  // namespace

Tensor permute_rotary_rows(const Tensor& w, int num_heads) { return move_rows(w, num_heads, true); }

Tensor unpermute_rotary_rows(const Tensor& w, int num_heads) {
  return move_rows(w, num_heads, false);
}

}  // namespace infergate
