#include "kernels/cpu/quant_linear.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/parallel_chunks.h"
#include "kernels/cpu/quant_kernels.h"
#include "kernels/cpu/quant_layout.h"

namespace infergate {

namespace detail {

namespace {
bool uses_dotprod(IsaLevel level) {
#if defined(__aarch64__)
  return level == IsaLevel::kNeon && cpu_has_neon_dotprod();
#else
  (void)level;
  return false;
#endif
}
}  // namespace

const QuantKernels& quant_kernels_for(IsaLevel level) {
  if (uses_dotprod(level)) return dotprod_quant_kernels();
  if (level >= IsaLevel::kAvx512 && cpu_has_avx512_vnni()) return vnni_quant_kernels();
  if (level >= IsaLevel::kAvx2) return avx2_quant_kernels();
  return generic_quant_kernels();
}

const char* quant_kernels_name(IsaLevel level) {
  if (uses_dotprod(level)) return "neon-dotprod";
  if (level >= IsaLevel::kAvx512 && cpu_has_avx512_vnni()) return "avx512-vnni";
  return level >= IsaLevel::kAvx2 ? "avx2" : "generic";
}

}  // namespace detail

namespace {

// Activation rows per pass over a thread's row groups: their int8 copy (kMc * k bytes) stays in
// L2 while the groups stream past.
constexpr int64_t kMc = 64;

// Per-token quantization for W8A8: one scale d = amax / 127 for the whole row, written to every
// block's d, and each block's sum of q, as QuantKernels::quantize_row lays them out. Portable
// and so identical at every ISA level; it costs O(k) against the GEMM's O(n k).
void quantize_row_per_token(const float* x, int64_t k, int8_t* q, float* d, int32_t* s) {
  float amax = 0;
  for (int64_t j = 0; j < k; ++j) amax = std::max(amax, std::fabs(x[j]));
  const float scale = amax / 127.0f;
  const float inv = scale != 0 ? 1.0f / scale : 0.0f;
  for (int64_t b = 0; b < k / kQuantBlock; ++b) {
    int32_t sum = 0;
    for (int64_t j = b * kQuantBlock; j < (b + 1) * kQuantBlock; ++j) {
      q[j] = static_cast<int8_t>(std::nearbyint(x[j] * inv));
      sum += q[j];
    }
    d[b] = scale;
    s[b] = sum;
  }
}

// The activation quantizer a weight dtype is computed against.
void quantize_activations(const detail::QuantKernels& kernels, DType dtype, const float* x,
                          int64_t k, int8_t* q, float* d, int32_t* s) {
  if (dtype == DType::kW8A8) return quantize_row_per_token(x, k, q, d, s);
  kernels.quantize_row(x, k, q, d, s);
}

// W8A8's integer sums run over a whole row: 255 * 127 * k must fit in int32.
constexpr int64_t kW8A8MaxK = 65536;

// The activation blocks (32 values each) of a row of k, checked to be whole format blocks.
int64_t whole_blocks(DType dtype, int64_t k) {
  if (!is_block_quantized(dtype) || k % dtype_block_elems(dtype) != 0) {
    throw std::invalid_argument(std::string("quantized linear: ") + dtype_name(dtype) +
                                " weight rows of " + std::to_string(k) +
                                " elements are not whole " +
                                std::to_string(dtype_block_elems(dtype)) + "-element blocks");
  }
  if (dtype == DType::kW8A8 && k > kW8A8MaxK) {
    throw std::invalid_argument("quantized linear: w8a8 weight rows of " + std::to_string(k) +
                                " elements exceed " + std::to_string(kW8A8MaxK) +
                                " (its int32 row sums would overflow)");
  }
  return k / kQuantBlock;
}

}  // namespace

void quant_linear(const float* x, int64_t m, const void* w, bool grouped, DType dtype, int64_t n,
                  int64_t k, float* y, ThreadPool& pool) {
  const int64_t blocks = whole_blocks(dtype, k);
  if (m <= 0 || n <= 0) return;
  const auto& kernels = detail::quant_kernels_for(active_isa());
  const auto group_bytes = size_t(detail::quant_group_bytes(dtype, k));
  const int64_t groups = detail::quant_groups(n);
  // The caller's buffers, reached through plain pointers: a lambda run by a worker would see
  // that worker's own (empty) thread_local vectors.
  thread_local std::vector<int8_t> xq_buffer;
  thread_local std::vector<float> xd_buffer;
  thread_local std::vector<int32_t> xs_buffer;
  thread_local std::vector<uint8_t> w_buffer;
  if (!grouped) {
    w_buffer.resize(group_bytes * size_t(groups));
    detail::pack_quant_groups(static_cast<const uint8_t*>(w), dtype, n, k, w_buffer.data());
    w = w_buffer.data();
  }
  xq_buffer.resize(static_cast<size_t>(m * k));
  xd_buffer.resize(static_cast<size_t>(m * blocks));
  xs_buffer.resize(static_cast<size_t>(m * blocks));
  int8_t* xq = xq_buffer.data();
  float* xd = xd_buffer.data();
  int32_t* xs = xs_buffer.data();
  detail::parallel_chunks(pool, m, m * k, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      quantize_activations(kernels, dtype, x + i * k, k, xq + i * k, xd + i * blocks,
                           xs + i * blocks);
    }
  });
  detail::parallel_chunks(pool, groups, m * n * k, [&](int64_t g0, int64_t g1) {
    const auto* first = static_cast<const uint8_t*>(w) + group_bytes * size_t(g0);
    const int64_t row0 = g0 * detail::kQuantGroupRows;
    for (int64_t m0 = 0; m0 < m; m0 += kMc) {
      kernels.dot_groups(xq + m0 * k, xd + m0 * blocks, xs + m0 * blocks, std::min(kMc, m - m0),
                         first, dtype, blocks, g1 - g0,
                         std::min(n, g1 * detail::kQuantGroupRows) - row0, y + m0 * n + row0, n);
    }
  });
}

void quant_linear_reference(const float* x, int64_t m, const Tensor& w, float* y) {
  const int64_t n = w.dim(0), k = w.dim(1), blocks = whole_blocks(w.dtype(), k);
  std::vector<int8_t> q(static_cast<size_t>(k));
  std::vector<float> d(static_cast<size_t>(blocks)), row(static_cast<size_t>(k));
  std::vector<int32_t> sums(static_cast<size_t>(blocks));
  std::vector<double> xs(static_cast<size_t>(m * k));
  for (int64_t i = 0; i < m; ++i) {
    quantize_activations(detail::generic_quant_kernels(), w.dtype(), x + i * k, k, q.data(),
                         d.data(), sums.data());
    for (int64_t j = 0; j < k; ++j) xs[i * k + j] = double(d[j / kQuantBlock]) * q[j];
  }
  for (int64_t r = 0; r < n; ++r) {
    to_f32(w, r * k, k, row.data());
    for (int64_t i = 0; i < m; ++i) {
      double acc = 0;
      for (int64_t j = 0; j < k; ++j) acc += xs[i * k + j] * double(row[j]);
      y[i * n + r] = float(acc);
    }
  }
}

}  // namespace infergate
