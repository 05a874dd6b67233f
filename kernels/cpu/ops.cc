#include "kernels/cpu/ops.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/ops_kernels.h"

namespace infergate {

namespace detail {

const OpsKernels& ops_kernels_for(IsaLevel level) {
  switch (level) {
    case IsaLevel::kAmx:
    case IsaLevel::kAvx512:
      return avx512_ops_kernels();
    case IsaLevel::kAvx2:
      return avx2_ops_kernels();
#if defined(__aarch64__)
    case IsaLevel::kNeon:  // NEON is aarch64's baseline: the portable loops vectorize with it
#endif
    case IsaLevel::kGeneric:
      break;
  }
  return generic_ops_kernels();
}

}  // namespace detail

void rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim, float eps,
              float* out) {
  const auto& k = detail::ops_kernels_for(active_isa());
  for (int64_t r = 0; r < rows; ++r) k.rms_norm_row(x + r * dim, weight, dim, eps, out + r * dim);
}

namespace {

// cos/sin of position * inv_freq[i] (times the frequencies' scale), computed in double once per
// position and cached per thread: prefill would otherwise spend more time in sin/cos than in
// the rotation.
class RopeTable {
 public:
  const float* cos_row(int64_t pos) { return cos_.data() + pos * half_; }
  const float* sin_row(int64_t pos) { return sin_.data() + pos * half_; }

  void prepare(const RopeFrequencies& f, int64_t max_pos) {
    if (!(f == freq_)) {
      freq_ = f, half_ = int(f.inv_freq.size()), rows_ = 0;
      cos_.clear(), sin_.clear();
    }
    if (max_pos < rows_) return;
    const int64_t rows = std::max<int64_t>(max_pos + 1, rows_ * 2);
    cos_.resize(static_cast<size_t>(rows * half_));
    sin_.resize(static_cast<size_t>(rows * half_));
    for (int64_t p = rows_; p < rows; ++p) {
      for (int i = 0; i < half_; ++i) {
        const double angle = double(p) * double(freq_.inv_freq[size_t(i)]);
        cos_[size_t(p * half_ + i)] = float(std::cos(angle)) * freq_.scale;
        sin_[size_t(p * half_ + i)] = float(std::sin(angle)) * freq_.scale;
      }
    }
    rows_ = rows;
  }

 private:
  RopeFrequencies freq_;
  int half_ = 0;
  int64_t rows_ = 0;
  std::vector<float> cos_, sin_;
};

}  // namespace

void rope_neox(float* x, const int32_t* positions, int64_t rows, int num_heads, int head_dim,
               const RopeFrequencies& freq) {
  if (rows <= 0) return;
  const int half = head_dim / 2;
  if (freq.inv_freq.size() != size_t(half)) {
    throw std::invalid_argument("rope_neox: " + std::to_string(freq.inv_freq.size()) +
                                " frequencies for head_dim " + std::to_string(head_dim));
  }
  thread_local RopeTable table;
  table.prepare(freq, *std::max_element(positions, positions + rows));
  const auto& k = detail::ops_kernels_for(active_isa());
  for (int64_t r = 0; r < rows; ++r) {
    if (positions[r] < 0) throw std::out_of_range("rope_neox: negative position");
    const float* c = table.cos_row(positions[r]);
    const float* s = table.sin_row(positions[r]);
    for (int h = 0; h < num_heads; ++h) {
      float* lo = x + (r * num_heads + h) * head_dim;
      k.rope_half(lo, lo + half, c, s, half);
    }
  }
}

void rope_neox(float* x, const int32_t* positions, int64_t rows, int num_heads, int head_dim,
               float theta) {
  thread_local int cached_dim = 0;
  thread_local float cached_theta = 0;
  thread_local RopeFrequencies plain;
  if (head_dim != cached_dim || theta != cached_theta) {
    plain = RopeFrequencies::plain(head_dim, theta);
    cached_dim = head_dim, cached_theta = theta;
  }
  rope_neox(x, positions, rows, num_heads, head_dim, plain);
}

void silu_mul(const float* gate, const float* up, int64_t n, float* out) {
  detail::ops_kernels_for(active_isa()).silu_mul(gate, up, n, out);
}

void silu_mul_rows(const float* gate_up, int64_t rows, int64_t width, float* out) {
  const auto& k = detail::ops_kernels_for(active_isa());
  for (int64_t r = 0; r < rows; ++r) {
    k.silu_mul(gate_up + r * 2 * width, gate_up + r * 2 * width + width, width, out + r * width);
  }
}

void add_inplace(float* x, const float* y, int64_t n) {
  detail::ops_kernels_for(active_isa()).add(x, y, n);
}

void softmax_inplace(float* x, int64_t n) {
  if (n <= 0) return;
  const float mx = *std::max_element(x, x + n);
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    x[i] = std::exp(x[i] - mx);
    sum += x[i];
  }
  const float inv = float(1.0 / sum);
  for (int64_t i = 0; i < n; ++i) x[i] *= inv;
}

void embedding_lookup(const Tensor& table, const int32_t* ids, int64_t n, float* out) {
  const int64_t vocab = table.dim(0), dim = table.dim(1);
  for (int64_t i = 0; i < n; ++i) {
    if (ids[i] < 0 || ids[i] >= vocab) {
      throw std::out_of_range("token id " + std::to_string(ids[i]) + " outside vocabulary [0, " +
                              std::to_string(vocab) + ")");
    }
    to_f32(table, int64_t(ids[i]) * dim, dim, out + i * dim);
  }
}

void embedding_lookup_shard(const Tensor& table, int64_t row_start, const int32_t* ids, int64_t n,
                            float* out) {
  const int64_t rows = table.dim(0), dim = table.dim(1);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t row = int64_t(ids[i]) - row_start;
    if (row >= 0 && row < rows) {
      to_f32(table, row * dim, dim, out + i * dim);
    } else {
      std::fill_n(out + i * dim, dim, 0.0f);
    }
  }
}

}  // namespace infergate
