#include "kernels/cpu/linear.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/fp8_linear.h"
#include "kernels/cpu/linear_kernels.h"
#include "kernels/cpu/parallel_chunks.h"
#include "kernels/cpu/quant_linear.h"

namespace infergate {

namespace detail {

const LinearKernels& linear_kernels_for(IsaLevel level) {
  switch (level) {
    case IsaLevel::kAmx:
    case IsaLevel::kAvx512:
      return avx512_linear_kernels();
    case IsaLevel::kAvx2:
      return avx2_linear_kernels();
#if defined(__aarch64__)
    case IsaLevel::kNeon:
      return neon_linear_kernels();
#endif
    case IsaLevel::kGeneric:
      break;
  }
  return generic_linear_kernels();
}

}  // namespace detail

namespace {

using detail::kPanelWidth;
using detail::parallel_chunks;

// Blocking: an mc x kc slice of x stays in L2 while this thread's panels stream past it; a
// kc x 32 panel block (16-32 KiB) stays in L1 across all row tiles.
constexpr int64_t kMc = 192;
constexpr int64_t kKc = 256;

struct WeightView {
  const void* data;
  DType dtype;
  int64_t n, k;
  bool panelized;
};

void check_weight(const Tensor& w) {
  if (w.shape().size() != 2) {
    throw std::invalid_argument("linear: weight must be 2-D, got " + w.shape_string());
  }
}

// m == 1 over a row-major weight.
void gemv(const float* x, const WeightView& w, float* y, ThreadPool& pool) {
  const auto& kernels = detail::linear_kernels_for(active_isa());
  const size_t row_bytes = dtype_bytes(w.dtype, w.k);
  parallel_chunks(pool, w.n, w.n * w.k, [&](int64_t r0, int64_t r1) {
    kernels.gemv_rows(x, static_cast<const uint8_t*>(w.data) + row_bytes * size_t(r0), w.dtype, w.k,
                      r1 - r0, y + r0);
  });
}

// Panels [p0, p1) of the output, all m rows: the per-thread body of gemm().
void gemm_panels(const float* x, int64_t m, const WeightView& w, int64_t p0, int64_t p1, float* y,
                 const detail::LinearKernels& kernels) {
  const int64_t kc = w.panelized && m <= 4 ? w.k : kKc;  // small m: stream whole panels
  thread_local std::vector<float> scratch;
  if (!w.panelized) scratch.resize(static_cast<size_t>(kKc * kPanelWidth));
  const size_t elem = w.dtype == DType::kF32 ? 4 : 2;
  const int64_t kp = detail::panel_k(w.dtype, w.k);  // stored k per panel
  for (int64_t m0 = 0; m0 < m; m0 += kMc) {
    const int64_t mb = std::min(kMc, m - m0);
    for (int64_t k0 = 0; k0 < w.k; k0 += kc) {
      const int64_t kb = std::min(kc, w.k - k0);
      for (int64_t p = p0; p < p1; ++p) {
        const void* block = scratch.data();
        DType block_dtype = DType::kF32;
        if (w.panelized) {
          block = static_cast<const uint8_t*>(w.data) + (p * kp + k0) * kPanelWidth * elem;
          block_dtype = w.dtype;
        } else {
          kernels.pack_panel_f32(w.data, w.dtype, w.n, w.k, p * kPanelWidth, k0, kb,
                                 scratch.data());
        }
        const int ncols = static_cast<int>(std::min<int64_t>(kPanelWidth, w.n - p * kPanelWidth));
        kernels.gemm_panel(x + m0 * w.k + k0, w.k, mb, block, block_dtype, kb,
                           y + m0 * w.n + p * kPanelWidth, w.n, ncols, k0 > 0);
      }
    }
  }
}

void gemm(const float* x, int64_t m, const WeightView& w, float* y, ThreadPool& pool) {
  const auto& kernels = detail::linear_kernels_for(active_isa());
  const int64_t panels = (w.n + kPanelWidth - 1) / kPanelWidth;
  parallel_chunks(pool, panels, m * w.n * w.k,
                  [&](int64_t p0, int64_t p1) { gemm_panels(x, m, w, p0, p1, y, kernels); });
}

// Packed bf16 weights on AMX: x is split into bf16 hi/lo planes once per call (in parallel),
// then threads share out the panels; row blocks of kAmxMc keep their planes in L2.
void gemm_amx(const float* x, int64_t m, const WeightView& w, float* y, ThreadPool& pool,
              const detail::AmxKernels& amx) {
  constexpr int64_t kAmxMc = 128;
  const int64_t rows = (m + 31) / 32 * 32, kp = detail::panel_k(w.dtype, w.k);
  thread_local std::vector<uint16_t> planes;
  planes.resize(static_cast<size_t>(2 * rows * kp));
  uint16_t* hi = planes.data();
  uint16_t* lo = hi + rows * kp;
  parallel_chunks(pool, rows, rows * kp * 8,
                  [&](int64_t r0, int64_t r1) { amx.split_bf16(x, m, w.k, kp, r0, r1, hi, lo); });
  const int64_t panels = (w.n + kPanelWidth - 1) / kPanelWidth;
  const auto* data = static_cast<const uint16_t*>(w.data);
  parallel_chunks(pool, panels, m * w.n * w.k, [&](int64_t p0, int64_t p1) {
    for (int64_t m0 = 0; m0 < rows; m0 += kAmxMc) {
      const int64_t mb = std::min(kAmxMc, rows - m0);
      amx.gemm_panels(hi + m0 * kp, lo + m0 * kp, mb, std::min(mb, m - m0), data, kp, p0, p1,
                      y + m0 * w.n, w.n, w.n);
    }
  });
}

// AMX pays off once a 32-row tile is mostly real rows.
constexpr int64_t kAmxMinRows = 24;

const detail::AmxKernels* amx_for(const WeightView& w, int64_t m) {
  if (active_isa() < IsaLevel::kAmx || !w.panelized || w.dtype != DType::kBF16) return nullptr;
  return m >= kAmxMinRows ? detail::amx_kernels() : nullptr;
}

void run(const float* x, int64_t m, const WeightView& w, float* y, ThreadPool& pool) {
  if (w.dtype == DType::kFP8) return fp8_linear(x, m, w.data, w.panelized, w.n, w.k, y, pool);
  if (is_block_quantized(w.dtype)) {
    return quant_linear(x, m, w.data, w.panelized, w.dtype, w.n, w.k, y, pool);
  }
  if (m <= 0 || w.n <= 0) return;
  if (w.k == 0) {
    std::fill(y, y + m * w.n, 0.0f);
  } else if (m == 1 && !w.panelized) {
    gemv(x, w, y, pool);
  } else if (const detail::AmxKernels* amx = amx_for(w, m)) {
    gemm_amx(x, m, w, y, pool, *amx);
  } else {
    gemm(x, m, w, y, pool);
  }
}

// A weight stacked from parts of different dtypes: each part's columns computed alone, then
// placed in y's rows ([y_0 | y_1 | ...]).
void linear_by_parts(const float* x, int64_t m, const PackedWeight& w, float* y, ThreadPool& pool) {
  thread_local std::vector<float> part_y;
  int64_t column = 0;
  for (const PackedWeight& part : w.parts()) {
    const int64_t n = part.rows();
    part_y.resize(size_t(m * n));
    run(x, m, {part.storage().raw(), part.dtype(), n, part.cols(), part.panelized()}, part_y.data(),
        pool);
    for (int64_t i = 0; i < m; ++i) {
      std::copy_n(part_y.data() + i * n, n, y + i * w.rows() + column);
    }
    column += n;
  }
}

}  // namespace

void linear(const float* x, int64_t m, const Tensor& w, float* y, ThreadPool& pool) {
  check_weight(w);
  run(x, m, {w.raw(), w.dtype(), w.dim(0), w.dim(1), false}, y, pool);
}

void linear(const float* x, int64_t m, const PackedWeight& w, float* y, ThreadPool& pool) {
  if (!w.defined()) throw std::invalid_argument("linear: packed weight is empty");
  if (w.mixed()) return linear_by_parts(x, m, w, y, pool);
  run(x, m, {w.storage().raw(), w.dtype(), w.rows(), w.cols(), w.panelized()}, y, pool);
}

void linear_reference(const float* x, int64_t m, const Tensor& w, float* y) {
  check_weight(w);
  // The integer formats against activations quantized as their kernels do; fp8 weights, whose
  // kernels keep activations fp32, below with the float formats.
  if (is_block_quantized(w.dtype()) && w.dtype() != DType::kFP8) {
    return quant_linear_reference(x, m, w, y);
  }
  const int64_t n = w.dim(0), k = w.dim(1);
  std::vector<float> row(static_cast<size_t>(k));
  for (int64_t r = 0; r < n; ++r) {
    to_f32(w, r * k, k, row.data());
    for (int64_t i = 0; i < m; ++i) {
      double acc = 0;
      for (int64_t j = 0; j < k; ++j) acc += double(x[i * k + j]) * double(row[j]);
      y[i * n + r] = float(acc);
    }
  }
}

}  // namespace infergate
