#include "kernels/cpu/q4_k_block.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/k_quant_fit.h"

namespace infergate {

namespace {

constexpr int kSub = 32;      // values per sub-block
constexpr int kLevels = 15;   // largest nibble
constexpr int kSixBits = 63;  // largest scale or minimum code

}  // namespace

void q4_k_pack_scale_min(const uint8_t* scales, const uint8_t* mins, uint8_t* packed) {
  std::memset(packed, 0, 12);
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    if (s < 4) {
      packed[s] = scales[s];
      packed[s + 4] = mins[s];
    } else {
      packed[s + 4] = uint8_t((scales[s] & 15) | ((mins[s] & 15) << 4));
      packed[s - 4] |= uint8_t((scales[s] >> 4) << 6);
      packed[s] |= uint8_t((mins[s] >> 4) << 6);
    }
  }
}

void q4_k_scale_min(const uint8_t* packed, int s, uint8_t* scale, uint8_t* min) {
  if (s < 4) {
    *scale = packed[s] & 63;
    *min = packed[s + 4] & 63;
  } else {
    *scale = uint8_t((packed[s + 4] & 15) | ((packed[s - 4] >> 6) << 4));
    *min = uint8_t((packed[s + 4] >> 4) | ((packed[s] >> 6) << 4));
  }
}

void dequantize_block_q4_k(const uint8_t* block, float* out) {
  uint16_t h[2];
  std::memcpy(h, block, 4);
  const float d = f16_to_f32(h[0]), dmin = f16_to_f32(h[1]);
  const uint8_t* qs = block + 16;
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    uint8_t sc, m;
    q4_k_scale_min(block + 4, s, &sc, &m);
    const float scale = d * float(sc), min = dmin * float(m);
    const uint8_t* q = qs + kSub * (s / 2);
    const int shift = (s % 2) * 4;
    for (int l = 0; l < kSub; ++l) out[kSub * s + l] = scale * float((q[l] >> shift) & 15) - min;
  }
}

void quantize_block_q4_k(const float* x, uint8_t* out) {
  float scales[kQ4_KSubBlocks], mins[kQ4_KSubBlocks];
  float max_scale = 0, max_min = 0;
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    float offset;
    scales[s] = fit_scale_and_offset(x + kSub * s, kSub, kLevels, &offset);
    mins[s] = -offset;
    max_scale = std::max(max_scale, scales[s]);
    max_min = std::max(max_min, mins[s]);
  }
  const float inv_scale = max_scale > 0 ? kSixBits / max_scale : 0.0f;
  const float inv_min = max_min > 0 ? kSixBits / max_min : 0.0f;
  uint8_t ls[kQ4_KSubBlocks], lm[kQ4_KSubBlocks];
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    ls[s] = uint8_t(std::min(kSixBits, nearest_code(inv_scale * scales[s])));
    lm[s] = uint8_t(std::min(kSixBits, nearest_code(inv_min * mins[s])));
  }
  const uint16_t h[2] = {f32_to_f16(max_scale / kSixBits), f32_to_f16(max_min / kSixBits)};
  std::memcpy(out, h, 4);
  q4_k_pack_scale_min(ls, lm, out + 4);
  // The nibbles against the scales as stored (fp16 d times the 6-bit codes).
  const float d = f16_to_f32(h[0]), dmin = f16_to_f32(h[1]);
  uint8_t* qs = out + 16;
  std::memset(qs, 0, 128);
  for (int s = 0; s < kQ4_KSubBlocks; ++s) {
    const float scale = d * float(ls[s]), min = dmin * float(lm[s]);
    const int shift = (s % 2) * 4;
    for (int l = 0; l < kSub; ++l) {
      const int q = scale != 0 ? clamp_code((x[kSub * s + l] + min) / scale, kLevels) : 0;
      qs[kSub * (s / 2) + l] |= uint8_t(q << shift);
    }
  }
}

}  // namespace infergate
