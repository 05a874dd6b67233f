#include "kernels/cpu/packed_weight.h"

#include <cstring>
#include <stdexcept>

#include "kernels/cpu/fp8_layout.h"
#include "kernels/cpu/linear_kernels.h"
#include "kernels/cpu/quant_layout.h"

namespace infergate {

namespace {

using detail::kPanelWidth;

// Refuses parts that are not 2-D with one k; true when they share one dtype.
bool check_parts(const std::vector<const Tensor*>& parts) {
  if (parts.empty()) throw std::invalid_argument("prepare_weight: no weights given");
  const Tensor& first = *parts.front();
  bool one_dtype = true;
  for (const Tensor* p : parts) {
    if (p->shape().size() != 2 || p->dim(1) != first.dim(1)) {
      throw std::invalid_argument("prepare_weight: weights must be 2-D with equal k, got " +
                                  p->shape_string() + " vs " + first.shape_string());
    }
    one_dtype = one_dtype && p->dtype() == first.dtype();
  }
  return one_dtype;
}

// The rows of `parts` (one dtype), concatenated, as one row-major tensor (borrowed when there
// is one part).
Tensor stack_rows(const std::vector<const Tensor*>& parts) {
  int64_t n = 0;
  const Tensor& first = *parts.front();
  for (const Tensor* p : parts) n += p->dim(0);
  if (parts.size() == 1) return first;
  Tensor out = Tensor::zeros(first.dtype(), {n, first.dim(1)});
  uint8_t* dst = static_cast<uint8_t*>(out.mutable_raw());
  for (const Tensor* p : parts) {
    std::memcpy(dst, p->raw(), p->nbytes());
    dst += p->nbytes();
  }
  return out;
}

// Panel p holds rows [32p, 32p + 32) as [kp][32]: element (t, j) at index(t, j).
template <typename T, typename Index>
void pack_panels(const T* src, int64_t n, int64_t k, int64_t kp, Index index, T* dst) {
  const int64_t panels = (n + kPanelWidth - 1) / kPanelWidth;
  for (int64_t p = 0; p < panels; ++p) {
    T* out = dst + p * kp * kPanelWidth;
    for (int j = 0; j < kPanelWidth; ++j) {
      const int64_t row = p * kPanelWidth + j;
      if (row >= n) break;  // the zero-filled tail stays zero
      const T* in = src + row * k;
      for (int64_t t = 0; t < k; ++t) out[index(t, j)] = in[t];
    }
  }
}

int64_t dense_index(int64_t t, int j) { return t * kPanelWidth + j; }

}  // namespace

PackedWeight prepare_weight(const Tensor& w) { return prepare_weight(std::vector{&w}); }

PackedWeight prepare_weight(const std::vector<const Tensor*>& parts) {
  if (!check_parts(parts)) {
    PackedWeight out;
    for (const Tensor* p : parts) {
      out.parts_.push_back(prepare_weight(*p));
      out.rows_ += p->dim(0);
    }
    out.cols_ = parts.front()->dim(1);
    out.dtype_ = parts.front()->dtype();
    out.panelized_ = true;
    return out;
  }
  Tensor w = stack_rows(parts);
  PackedWeight out;
  out.rows_ = w.dim(0);
  out.cols_ = w.dim(1);
  out.dtype_ = w.dtype();
  out.panelized_ = true;
  if (w.dtype() == DType::kFP8) {  // row groups for fp8_linear() (fp8_layout.h)
    out.data_ = Tensor::zeros(DType::kI8,
                              {detail::fp8_groups(out.rows_), detail::fp8_group_bytes(out.cols_)});
    detail::pack_fp8_groups(w.data<uint8_t>(), out.rows_, out.cols_,
                            out.data_.mutable_data<uint8_t>());
    return out;
  }
  if (is_block_quantized(w.dtype())) {  // row groups for quant_linear() (quant_layout.h)
    const int64_t groups = detail::quant_groups(out.rows_);
    out.data_ = Tensor::zeros(DType::kI8,  // bytes: Q4_K's groups are not whole blocks
                              {groups, detail::quant_group_bytes(w.dtype(), out.cols_)});
    detail::pack_quant_groups(w.data<uint8_t>(), w.dtype(), out.rows_, out.cols_,
                              out.data_.mutable_data<uint8_t>());
    return out;
  }
  const int64_t n = out.rows_, k = out.cols_, kp = detail::panel_k(w.dtype(), k);
  const int64_t panels = (n + kPanelWidth - 1) / kPanelWidth;
  out.data_ = Tensor::zeros(w.dtype(), {panels, kp, kPanelWidth});
  if (w.dtype() == DType::kF32) {
    pack_panels(w.data<float>(), n, k, kp, dense_index, out.data_.mutable_data<float>());
  } else if (w.dtype() == DType::kBF16) {
    pack_panels(w.data<uint16_t>(), n, k, kp, detail::bf16_panel_index,
                out.data_.mutable_data<uint16_t>());
  } else {
    pack_panels(w.data<uint16_t>(), n, k, kp, dense_index, out.data_.mutable_data<uint16_t>());
  }
  return out;
}

size_t PackedWeight::nbytes() const {
  size_t total = data_.defined() ? data_.nbytes() : 0;
  for (const PackedWeight& p : parts_) total += p.nbytes();
  return total;
}

Tensor PackedWeight::unpack() const {
  if (mixed()) {
    throw std::invalid_argument(
        "PackedWeight::unpack: its parts have different dtypes; unpack "
        "each of parts()");
  }
  if (!panelized_) return data_;
  if (dtype() == DType::kFP8) {
    Tensor out = Tensor::zeros(dtype(), {rows_, cols_});
    detail::unpack_fp8_groups(data_.data<uint8_t>(), rows_, cols_, out.mutable_data<uint8_t>());
    return out;
  }
  if (is_block_quantized(dtype())) {
    Tensor out = Tensor::zeros(dtype(), {rows_, cols_});
    detail::unpack_quant_groups(data_.data<uint8_t>(), dtype(), rows_, cols_,
                                out.mutable_data<uint8_t>());
    return out;
  }
  Tensor out = Tensor::zeros(dtype(), {rows_, cols_});
  const size_t es = dtype_bytes(dtype(), 1);
  const uint8_t* src = static_cast<const uint8_t*>(data_.raw());
  uint8_t* dst = static_cast<uint8_t*>(out.mutable_raw());
  const int64_t kp = data_.dim(1);
  for (int64_t r = 0; r < rows_; ++r) {
    const int64_t p = r / kPanelWidth;
    const int j = static_cast<int>(r % kPanelWidth);
    for (int64_t t = 0; t < cols_; ++t) {
      const int64_t at =
          dtype() == DType::kBF16 ? detail::bf16_panel_index(t, j) : dense_index(t, j);
      std::memcpy(dst + static_cast<size_t>(r * cols_ + t) * es,
                  src + static_cast<size_t>(p * kp * kPanelWidth + at) * es, es);
    }
  }
  return out;
}

}  // namespace infergate
