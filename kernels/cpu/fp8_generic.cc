// The portable kernels of fp8 `linear`: the fallback on any CPU. Plain
// loops over the grouped layout (fp8_layout.h), each code widened through a 256-entry table.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_kernels.h"
#include "kernels/cpu/fp8_layout.h"

namespace infergate::detail {

namespace {

constexpr int kRows = static_cast<int>(kFp8GroupRows);

const std::array<float, 256>& code_values() {
  static const std::array<float, 256> table = [] {
    std::array<float, 256> t{};
    for (int c = 0; c < 256; ++c) t[size_t(c)] = fp8_e4m3_to_f32(uint8_t(c));
    return t;
  }();
  return table;
}

void dot_groups(const float* x, int64_t m, int64_t k, const uint8_t* w, int64_t groups,
                int64_t rows, float* c, int64_t ldc) {
  const std::array<float, 256>& value = code_values();
  const int64_t blocks = k / kFp8Block;
  for (int64_t g = 0; g < groups; ++g) {
    const int valid = static_cast<int>(std::min<int64_t>(kRows, rows - g * kRows));
    for (int r = 0; r < valid; ++r) {
      for (int64_t i = 0; i < m; ++i) {
        float total = 0;
        for (int64_t b = 0; b < blocks; ++b) {
          const uint8_t* gb = w + (g * blocks + b) * kFp8GroupBlockBytes;
          float scale;
          std::memcpy(&scale, gb + 4 * r, 4);
          const uint8_t* codes = gb + kFp8GroupScaleBytes;
          const float* xb = x + i * k + b * kFp8Block;
          float acc = 0;
          for (int j = 0; j < kFp8Block; ++j) {
            acc += value[codes[((j / 4) * kRows + r) * 4 + j % 4]] * xb[j];
          }
          total += std::fabs(scale) * acc;  // the sign is a flag (fp8_layout.h)
        }
        c[i * ldc + g * kRows + r] = total;
      }
    }
  }
}

constexpr Fp8Kernels kGenericFp8Kernels = {&dot_groups};

}  // namespace

const Fp8Kernels& generic_fp8_kernels() { return kGenericFp8Kernels; }

}  // namespace infergate::detail
