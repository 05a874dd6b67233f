// llama.cpp's block formats dequantized from hand-packed blocks (kernels/cpu/q5_blocks.h,
// k_quant_blocks.h, iq4_blocks.h): each value here worked out from the layout by hand; and the
// quantizers' error. Bit for bit against llama.cpp itself: tests/interop/llama_cpp_blocks.cc.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "kernels/cpu/iq4_blocks.h"
#include "kernels/cpu/k_quant_blocks.h"
#include "kernels/cpu/q5_blocks.h"

namespace infergate {
namespace {

constexpr uint8_t kHalfOne[2] = {0x00, 0x3C}, kHalfHalf[2] = {0x00, 0x38};

void put_half(std::vector<uint8_t>& b, size_t at, const uint8_t (&h)[2]) {
  b[at] = h[0];
  b[at + 1] = h[1];
}

TEST_CASE("Q5_0 and Q5_1 take each value's fifth bit from qh") {
  std::vector<uint8_t> q5_0(kQ5_0BlockBytes, 0), q5_1(kQ5_1BlockBytes, 0);
  put_half(q5_0, 0, kHalfHalf);    // d = 0.5
  q5_0[2] = 0x01, q5_0[4] = 0x01;  // qh bits 0 and 16
  q5_0[6] = 0x3F;                  // qs[0]: low nibble 15 (value 0), high 3 (value 16)
  float v[32];
  dequantize_block_q5_0(q5_0.data(), v);
  CHECK(v[0] == 7.5f);   // (15 | 16) - 16 = 15, times 0.5
  CHECK(v[16] == 1.5f);  // (3 | 16) - 16 = 3
  CHECK(v[1] == -8.0f);  // 0 - 16
  put_half(q5_1, 0, kHalfHalf);
  q5_1[2] = 0x00, q5_1[3] = 0xBC;  // m = -1
  q5_1[4] = 0x01, q5_1[6] = 0x01, q5_1[8] = 0x3F;
  dequantize_block_q5_1(q5_1.data(), v);
  CHECK(v[0] == 14.5f);  // 31 x 0.5 - 1
  CHECK(v[16] == 8.5f);  // 19 x 0.5 - 1
  CHECK(v[1] == -1.0f);
}

TEST_CASE("Q5_0 and Q5_1 quantize a block to within a step, representable values exactly") {
  float x[32], back[32];
  for (int j = 0; j < 32; ++j) x[j] = 0.5f * float(j % 32 - 16);  // -8 .. 7.5 in steps of 0.5
  std::vector<uint8_t> block(kQ5_1BlockBytes);
  quantize_block_q5_0(x, block.data());  // d = -8 / -16 = 0.5: every value on the grid
  dequantize_block_q5_0(block.data(), back);
  for (int j = 0; j < 32; ++j) CHECK(back[j] == x[j]);
  quantize_block_q5_1(x, block.data());  // d = 15.5 / 31 = 0.5, m = -8
  dequantize_block_q5_1(block.data(), back);
  for (int j = 0; j < 32; ++j) CHECK(back[j] == x[j]);

  for (int j = 0; j < 32; ++j) x[j] = std::sin(0.7f * float(j)) * 3.0f;
  quantize_block_q5_0(x, block.data());
  dequantize_block_q5_0(block.data(), back);
  // Half a step (|d| = max |x| / 16), but the end opposite the largest magnitude is clamped at
  // code 31, one step short of it (llama.cpp's choice).
  float amax = 0;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  for (int j = 0; j < 32; ++j) CHECK(std::fabs(back[j] - x[j]) <= amax / 16 * 1.01f);
  quantize_block_q5_1(x, block.data());
  dequantize_block_q5_1(block.data(), back);
  for (int j = 0; j < 32; ++j) CHECK(std::fabs(back[j] - x[j]) <= 6.0f / 31 / 2 * 1.01f);
}

TEST_CASE("Q2_K and Q3_K scale each 16 values and take 2 bits a value from qs") {
  std::vector<uint8_t> q2(kQ2_KBlockBytes, 0);
  q2[0] = 0x21, q2[2] = 0x15,
  q2[6] = 0x02;                 // sub-blocks 0, 2, 6: (scale, min) (1, 2) (5, 1) (2, 0)
  q2[16] = 0xE4;                // qs[0]: codes 0, 1, 2, 3 at shifts 0, 2, 4, 6
  put_half(q2, 80, kHalfOne);   // d = 1
  put_half(q2, 82, kHalfHalf);  // dmin = 0.5
  float v[256];
  dequantize_block_q2_k(q2.data(), v);
  CHECK(v[0] == -1.0f);  // 1 x 0 - 0.5 x 2
  CHECK(v[32] == 4.5f);  // 5 x 1 - 0.5 x 1
  CHECK(v[96] == 6.0f);  // 2 x 3
  CHECK(v[16] == 0.0f);

  std::vector<uint8_t> q3(kQ3_KBlockBytes, 0);
  q3[0] = 0x01;    // hmask[0]: the high bit of value 0 (h 0, j 0)
  q3[32] = 0xE5;   // qs[0]: code 1 at shift 0
  q3[96] = 0x01;   // scale 0: low nibble 1 ...
  q3[104] = 0x02;  // ... top bits 2: 33, so 1; scale 8: 0, so -32
  put_half(q3, 108, kHalfOne);
  dequantize_block_q3_k(q3.data(), v);
  CHECK(v[0] == 1.0f);      // high bit set: code 1
  CHECK(v[1] == -4.0f);     // high bit clear: 0 - 4
  CHECK(v[128] == 128.0f);  // (0 - 4) x (0 - 32)
}

TEST_CASE("Q5_K and Q6_K add high bits to the nibbles") {
  std::vector<uint8_t> q5(kQ5_KBlockBytes, 0);
  put_half(q5, 0, kHalfOne);
  put_half(q5, 2, kHalfHalf);
  q5[4] = 2, q5[5] = 1, q5[8] = 4;  // scales of sub-blocks 0 and 1: 2 and 1; minimum of 0: 4
  q5[16] = 0x01;                    // qh[0]: bit 0, sub-block 0's high bit of value 0
  q5[48] = 0x73;                    // qs[0]: 3 for sub-block 0, 7 for sub-block 1
  float v[256];
  dequantize_block_q5_k(q5.data(), v);
  CHECK(v[0] == 36.0f);  // 2 x (3 + 16) - 0.5 x 4
  CHECK(v[32] == 7.0f);  // 1 x 7

  std::vector<uint8_t> q6(kQ6_KBlockBytes, 0);
  q6[0] = 0x21;    // ql[0]: low nibble 1 (value 0), high 2 (value 64)
  q6[128] = 0x06;  // qh[0]: bits 0-1 = 2 (value 0), bits 2-3 = 1 (value 32)
  q6[192] = 0xFE;  // scale 0 = -2
  q6[194] = 3;     // scale 2 = 3
  put_half(q6, 208, kHalfHalf);
  dequantize_block_q6_k(q6.data(), v);
  CHECK(v[0] == -1.0f);    // 0.5 x -2 x (1 | 2 << 4) - 32)
  CHECK(v[32] == -24.0f);  // 0.5 x 3 x ((0 | 1 << 4) - 32)
  CHECK(v[64] == 0.0f);    // scale 4 is 0
}

TEST_CASE("Q6_K quantizes each 16 values to within a step of their own scale") {
  float x[256], back[256];
  for (int j = 0; j < 256; ++j) x[j] = std::sin(0.23f * float(j)) * float(1 + (j / 16) % 5);
  std::vector<uint8_t> block(kQ6_KBlockBytes);
  quantize_block_q6_k(x, block.data());
  dequantize_block_q6_k(block.data(), back);
  for (int g = 0; g < 16; ++g) {
    float amax = 0;
    for (int j = 16 * g; j < 16 * g + 16; ++j) amax = std::max(amax, std::fabs(x[j]));
    for (int j = 16 * g; j < 16 * g + 16; ++j) CHECK(std::fabs(back[j] - x[j]) <= amax / 31);
  }
  const std::vector<float> zeros(256, 0.0f);
  quantize_block_q6_k(zeros.data(), block.data());
  CHECK(block == std::vector<uint8_t>(kQ6_KBlockBytes, 0));  // d = 0 and every code 0
}

TEST_CASE("IQ4_NL and IQ4_XS quantize values on the level grid exactly, others to the grid") {
  float x[256], back[256];
  for (int j = 0; j < 256; ++j) x[j] = 0.5f * float(kIq4Levels[j % 16]) * float(1 + j / 32);
  std::vector<uint8_t> nl(kIq4_NlBlockBytes), xs(kIq4_XsBlockBytes);
  quantize_block_iq4_nl(x, nl.data());  // the first 32: step 0.5 exactly
  dequantize_block_iq4_nl(nl.data(), back);
  for (int j = 0; j < 32; ++j) CHECK(back[j] == x[j]);
  quantize_block_iq4_xs(x, xs.data());  // steps 0.5 .. 4: 6-bit multiples of 4 / 32 = 0.125
  dequantize_block_iq4_xs(xs.data(), back);
  for (int j = 0; j < 256; ++j) CHECK(back[j] == x[j]);

  for (int j = 0; j < 256; ++j) x[j] = std::sin(0.37f * float(j)) * float(1 + j % 7);
  quantize_block_iq4_xs(x, xs.data());
  dequantize_block_iq4_xs(xs.data(), back);
  for (int s = 0; s < 8; ++s) {  // within the widest gap between levels (24 of 127), per 32
    float amax = 0;
    for (int j = 32 * s; j < 32 * s + 32; ++j) amax = std::max(amax, std::fabs(x[j]));
    for (int j = 32 * s; j < 32 * s + 32; ++j) CHECK(std::fabs(back[j] - x[j]) <= amax * 0.15f);
  }
}

TEST_CASE("IQ4_NL and IQ4_XS look their nibbles up in the non-linear table") {
  std::vector<uint8_t> nl(kIq4_NlBlockBytes, 0);
  nl[1] = 0x40;  // d = 2
  nl[2] = 0xF0;  // qs[0]: level 0 (value 0), level 15 (value 16)
  float v[256];
  dequantize_block_iq4_nl(nl.data(), v);
  CHECK(v[0] == -254.0f);
  CHECK(v[16] == 226.0f);
  CHECK(v[1] == -254.0f);

  std::vector<uint8_t> xs(kIq4_XsBlockBytes, 0);
  put_half(xs, 0, kHalfHalf);
  xs[2] = 0x02;  // scales_h: top bits 2 for sub-block 0
  xs[4] = 0x31;  // scales_l[0]: low 1 (sub-block 0: 33, so 1), high 3 (sub-block 1: 3, so -29)
  xs[8] = 0x98;  // qs[0]: level 8 (1), level 9 (13)
  dequantize_block_iq4_xs(xs.data(), v);
  CHECK(v[0] == 0.5f);
  CHECK(v[16] == 6.5f);
  CHECK(v[32] == 1841.5f);  // 0.5 x -29 x -127
}

}  // namespace
}  // namespace infergate
