#include "kernels/cpu/iq4_blocks.h"

#include <cstring>

#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

// 32 values of nibble-coded levels from qs[16], each times `scale`.
void levels_times(const uint8_t* qs, float scale, float* out) {
  for (int j = 0; j < 16; ++j) {
    out[j] = scale * float(kIq4Levels[qs[j] & 15]);
    out[j + 16] = scale * float(kIq4Levels[qs[j] >> 4]);
  }
}

}  // namespace

void dequantize_block_iq4_nl(const uint8_t* block, float* out) {
  levels_times(block + 2, f16_at(block), out);
}

void dequantize_block_iq4_xs(const uint8_t* block, float* out) {
  const float d = f16_at(block);
  uint16_t scales_h;
  std::memcpy(&scales_h, block + 2, 2);
  const uint8_t* scales_l = block + 4;
  for (int s = 0; s < 8; ++s) {
    const int scale = ((scales_l[s / 2] >> (4 * (s % 2))) & 15) | ((scales_h >> (2 * s)) & 3) << 4;
    levels_times(block + 8 + 16 * s, d * float(scale - 32), out + 32 * s);
  }
}

}  // namespace infergate
