#include "kernels/cpu/int4_group.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

int code_of(float x, const Int4Group& g) {
  return std::clamp(int(std::nearbyint(x / g.scale)) + g.zero, 0, 15);
}

void check_group(int64_t k, int64_t group, int64_t multiple_of) {
  if (group <= 0 || group % multiple_of != 0 || k % group != 0) {
    throw std::invalid_argument("int4 group size " + std::to_string(group) +
                                " must be a positive multiple of " + std::to_string(multiple_of) +
                                " dividing the row length " + std::to_string(k));
  }
}

}  // namespace

Int4Group int4_group_params(const float* x, int64_t n) {
  const auto [lo, hi] = std::minmax_element(x, x + n);
  Int4Group g;
  g.scale = f16_to_f32(f32_to_f16(std::max(*hi - *lo, 1e-5f) / 15.0f));
  g.zero = std::clamp(-int(std::nearbyint(*lo / g.scale)), 0, 15);
  return g;
}

void fake_quantize_int4(float* row, int64_t k, int64_t group) {
  check_group(k, group, 1);
  for (int64_t start = 0; start < k; start += group) {
    float* x = row + start;
    const Int4Group g = int4_group_params(x, group);
    for (int64_t i = 0; i < group; ++i) x[i] = g.scale * float(code_of(x[i], g) - g.zero);
  }
}

void quantize_row_int4_as_q4_1(const float* row, int64_t k, int64_t group, uint8_t* out) {
  check_group(k, group, kQuantBlock);
  constexpr int kHalf = kQuantBlock / 2;
  for (int64_t start = 0; start < k; start += group) {
    const Int4Group g = int4_group_params(row + start, group);
    const uint16_t d16 = f32_to_f16(g.scale), m16 = f32_to_f16(-g.scale * float(g.zero));
    for (int64_t b = start; b < start + group; b += kQuantBlock) {
      uint8_t* block = out + (b / kQuantBlock) * int64_t(kQ4_1BlockBytes);
      std::memcpy(block, &d16, 2);
      std::memcpy(block + 2, &m16, 2);
      for (int j = 0; j < kHalf; ++j) {
        block[4 + j] = uint8_t(code_of(row[b + j], g) | (code_of(row[b + kHalf + j], g) << 4));
      }
    }
  }
}

Tensor quantize_int4_grouped(const Tensor& w, int64_t group) {
  if (w.shape().size() != 2) throw std::invalid_argument("quantize_int4_grouped: not a matrix");
  const int64_t rows = w.dim(0), k = w.dim(1);
  check_group(k, group, kQuantBlock);
  Tensor out = Tensor::zeros(DType::kQ4_1, w.shape());
  std::vector<float> row(static_cast<size_t>(k));
  uint8_t* dst = out.mutable_data<uint8_t>();
  const int64_t row_bytes = k / kQuantBlock * int64_t(kQ4_1BlockBytes);
  for (int64_t r = 0; r < rows; ++r) {
    to_f32(w, r * k, k, row.data());
    quantize_row_int4_as_q4_1(row.data(), k, group, dst + r * row_bytes);
  }
  return out;
}

}  // namespace infergate
