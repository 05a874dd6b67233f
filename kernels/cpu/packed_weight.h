// A linear weight repacked once, at load time, into the layout the GEMM kernels stream: column
// panels of 32 output rows, each stored k-major ([k][32]), so every k step of the micro-kernel
// reads one contiguous 64- or 128-byte row and no per-call transposition is needed.
#pragma once

#include <cstdint>
#include <vector>

#include "kernels/tensor.h"

namespace infergate {

class PackedWeight {
 public:
  PackedWeight() = default;

  bool defined() const { return data_.defined() || !parts_.empty(); }
  int64_t rows() const { return rows_; }  // n, the output features
  int64_t cols() const { return cols_; }  // k, the input features
  DType dtype() const { return dtype_; }
  // Always true once packed: F32/F16/BF16 as column panels, the block formats as groups of
  // eight rows (quant_layout.h, fp8_layout.h), the file's values, read in place by
  // quant_linear.h and fp8_linear.h.
  bool panelized() const { return panelized_; }
  size_t nbytes() const;
  // Stacked weights of different dtypes (llama.cpp's mixtures give attn_v a wider type than
  // attn_q): each packed alone, in order; linear() computes each into its own columns of y.
  // Empty when one dtype holds every row (then dtype() and storage() describe them all).
  const std::vector<PackedWeight>& parts() const { return parts_; }
  bool mixed() const { return !parts_.empty(); }
  // Panels [ceil(n / 32), k', 32] in dtype() (k' = k, or k rounded up to 32 for bf16, whose
  // panels keep k in pairs: see kernels/cpu/linear_kernels.h); for the block formats, the
  // row groups as bytes [ceil(n / 8), quant_group_bytes(dtype, k)] (fp8: fp8_group_bytes(k)).
  const Tensor& storage() const { return data_; }
  // The weight back in row-major [n, k] form (tests, exporters); a mixed weight by its parts.
  Tensor unpack() const;

 private:
  friend PackedWeight prepare_weight(const std::vector<const Tensor*>& parts);
  Tensor data_;
  DType dtype_ = DType::kF32;
  int64_t rows_ = 0;
  int64_t cols_ = 0;
  bool panelized_ = false;
  std::vector<PackedWeight> parts_;
};

// Packs w ([n, k], any dtype) for linear(x, m, packed, y, pool).
PackedWeight prepare_weight(const Tensor& w);
// Stacks the rows of several weights with the same k into one (e.g. q, k and v projections, or
// gate and up): one linear call then computes [y_0 | y_1 | ...] per row. Of one dtype they are
// packed as one weight; of several, each alone (mixed()).
PackedWeight prepare_weight(const std::vector<const Tensor*>& parts);

}  // namespace infergate
