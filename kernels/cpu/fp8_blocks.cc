#include "kernels/cpu/fp8_blocks.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/tensor.h"

namespace infergate {

namespace {

void encode_block(const float* x, float scale, uint8_t* block) {
  std::memcpy(block, &scale, 4);
  const float inv = scale != 0 ? 1.0f / scale : 0.0f;
  for (int64_t i = 0; i < kFp8Block; ++i) block[4 + i] = f32_to_fp8_e4m3(x[i] * inv);
}

float amax_of(const float* x, int64_t count) {
  float amax = 0;
  for (int64_t i = 0; i < count; ++i) amax = std::max(amax, std::fabs(x[i]));
  return amax;
}

}  // namespace

void quantize_block_fp8(const float* x, uint8_t* block) {
  encode_block(x, amax_of(x, kFp8Block) / kFp8E4M3Max, block);
}

void dequantize_block_fp8(const uint8_t* block, float* out) {
  float scale;
  std::memcpy(&scale, block, 4);
  for (int64_t i = 0; i < kFp8Block; ++i) out[i] = scale * fp8_e4m3_to_f32(block[4 + i]);
}

void make_block_fp8(const uint8_t* codes, float scale, uint8_t* block) {
  std::memcpy(block, &scale, 4);
  std::memcpy(block + 4, codes, kFp8Block);
}

void quantize_fp8_tiles(const float* x, int64_t n, int64_t k, uint8_t* out) {
  const int64_t blocks = k / kFp8Block;
  for (int64_t r0 = 0; r0 < n; r0 += kFp8Block) {
    const int64_t r1 = std::min(n, r0 + kFp8Block);
    for (int64_t b = 0; b < blocks; ++b) {
      float amax = 0;
      for (int64_t r = r0; r < r1; ++r) {
        amax = std::max(amax, amax_of(x + r * k + b * kFp8Block, kFp8Block));
      }
      for (int64_t r = r0; r < r1; ++r) {
        encode_block(x + r * k + b * kFp8Block, amax / kFp8E4M3Max,
                     out + (r * blocks + b) * kFp8BlockBytes);
      }
    }
  }
}

}  // namespace infergate
