#include "kernels/cpu/fp8_layout.h"

#include <cstring>

namespace infergate::detail {

namespace {

// Byte offsets of row r's scale and of its code j (< 128) within a group block.
int64_t scale_offset(int64_t r) { return 4 * r; }
int64_t code_offset(int64_t r, int64_t j) {
  return kFp8GroupScaleBytes + ((j / 4) * kFp8GroupRows + r) * 4 + j % 4;
}

// Calls f(file block, group block) for every block of rows [0, n).
template <typename F>
void for_each_block(int64_t n, int64_t k, F&& f) {
  const int64_t blocks = k / kFp8Block;
  for (int64_t row = 0; row < n; ++row) {
    const int64_t g = row / kFp8GroupRows, r = row % kFp8GroupRows;
    for (int64_t b = 0; b < blocks; ++b) {
      f(r, (row * blocks + b) * int64_t(kFp8BlockBytes), (g * blocks + b) * kFp8GroupBlockBytes);
    }
  }
}

}  // namespace

void pack_fp8_groups(const uint8_t* src, int64_t n, int64_t k, uint8_t* dst) {
  std::memset(dst, 0, size_t(fp8_groups(n) * fp8_group_bytes(k)));
  for_each_block(n, k, [&](int64_t r, int64_t file, int64_t group) {
    uint32_t scale;
    std::memcpy(&scale, src + file, 4);
    // Loaders refuse negative scales; one that comes anyway goes into its codes' signs.
    const uint8_t sign = (scale & kFp8F16RouteFlag) ? 0x80 : 0;
    scale &= ~kFp8F16RouteFlag;
    float magnitude;
    std::memcpy(&magnitude, &scale, 4);
    if (!(magnitude < kFp8ShiftedScaleLimit)) scale |= kFp8F16RouteFlag;
    for (int64_t j = 0; j < kFp8Block; ++j) {
      const uint8_t code = src[file + 4 + j] ^ sign;
      dst[group + code_offset(r, j)] = code;
      if (fp8_is_subnormal(code)) scale |= kFp8F16RouteFlag;
    }
    std::memcpy(dst + group + scale_offset(r), &scale, 4);
  });
}

void unpack_fp8_groups(const uint8_t* src, int64_t n, int64_t k, uint8_t* dst) {
  for_each_block(n, k, [&](int64_t r, int64_t file, int64_t group) {
    uint32_t scale;
    std::memcpy(&scale, src + group + scale_offset(r), 4);
    scale &= ~kFp8F16RouteFlag;
    std::memcpy(dst + file, &scale, 4);
    for (int64_t j = 0; j < kFp8Block; ++j) dst[file + 4 + j] = src[group + code_offset(r, j)];
  });
}

}  // namespace infergate::detail
