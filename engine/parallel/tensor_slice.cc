#include "engine/parallel/tensor_slice.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace infergate {

namespace {

int64_t row_width(const Tensor& t) { return t.shape().size() > 1 ? t.dim(1) : 1; }

}  // namespace

Tensor slice_rows(const Tensor& t, int64_t begin, int64_t count, int64_t padded_rows) {
  const int64_t width = row_width(t), rows = std::max(count, padded_rows);
  std::vector<int64_t> shape = t.shape();
  shape[0] = rows;
  Tensor out = Tensor::zeros(t.dtype(), shape);
  const size_t row_bytes = dtype_bytes(t.dtype(), width);
  std::memcpy(out.mutable_raw(), static_cast<const char*>(t.raw()) + size_t(begin) * row_bytes,
              size_t(count) * row_bytes);
  return out;
}

Tensor slice_cols(const Tensor& t, int64_t begin, int64_t count) {
  const int64_t width = row_width(t);
  const int64_t block = dtype_block_elems(t.dtype());
  if (begin % block != 0 || count % block != 0) {
    throw std::invalid_argument("cannot split a " + std::string(dtype_name(t.dtype())) +
                                " matrix at column " + std::to_string(begin) + " (+" +
                                std::to_string(count) + "): not a " + std::to_string(block) +
                                "-column block boundary; use weight_dtype f32, f16 "
                                "or bf16 with this tensor_parallel");
  }
  Tensor out = Tensor::zeros(t.dtype(), {t.dim(0), count});
  const size_t in_row = dtype_bytes(t.dtype(), width), out_row = dtype_bytes(t.dtype(), count);
  const size_t offset = dtype_bytes(t.dtype(), begin);
  for (int64_t r = 0; r < t.dim(0); ++r) {
    std::memcpy(static_cast<char*>(out.mutable_raw()) + size_t(r) * out_row,
                static_cast<const char*>(t.raw()) + size_t(r) * in_row + offset, out_row);
  }
  return out;
}

}  // namespace infergate
