#include "kernels/cpu/convert.h"

#include "kernels/cpu/q4_k_block.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "test_util.h"

namespace infergate {
namespace {

float from_bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

TEST_CASE("every f16 value round-trips through f32, subnormals and infinities included") {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const float f = f16_to_f32(uint16_t(h));
    if (std::isnan(f)) {
      CHECK(((h >> 10) & 0x1f) == 0x1f);
      CHECK(std::isnan(f16_to_f32(f32_to_f16(f))));
      continue;
    }
    REQUIRE(f32_to_f16(f) == uint16_t(h));
  }
  CHECK(f16_to_f32(0x0001) == std::ldexp(1.0f, -24));  // smallest subnormal
  CHECK(f16_to_f32(0x03ff) == std::ldexp(1023.0f, -24));
  CHECK(f16_to_f32(0x7c00) == std::numeric_limits<float>::infinity());
}

TEST_CASE("f32 to f16 rounds to nearest even, overflows to inf and flushes tiny values") {
  CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11)) == 0x3c00);      // tie: down to even
  CHECK(f32_to_f16(1.0f + 3 * std::ldexp(1.0f, -11)) == 0x3c02);  // tie: up to even
  CHECK(f32_to_f16(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)) == 0x3c01);
  CHECK(f32_to_f16(65504.0f) == 0x7bff);
  CHECK(f32_to_f16(65520.0f) == 0x7c00);  // halfway to 2^16 rounds to inf
  CHECK(f32_to_f16(-1e9f) == 0xfc00);
  CHECK(f32_to_f16(std::ldexp(1.0f, -25)) == 0x0000);  // tie with 0: even
  CHECK(f32_to_f16(std::ldexp(1.5f, -25)) == 0x0001);
  CHECK(f32_to_f16(std::ldexp(3.0f, -25)) == 0x0002);  // tie between 1 and 2 subnormal ulps
  CHECK(f32_to_f16(-0.0f) == 0x8000);
  CHECK(std::isnan(f16_to_f32(f32_to_f16(std::numeric_limits<float>::quiet_NaN()))));
}

TEST_CASE("bf16 round-trips and rounds to nearest even") {
  for (uint32_t h = 0; h < 0x10000u; ++h) {
    const float f = bf16_to_f32(uint16_t(h));
    if (std::isnan(f)) {
      CHECK(std::isnan(bf16_to_f32(f32_to_bf16(f))));
      continue;
    }
    REQUIRE(f32_to_bf16(f) == uint16_t(h));
  }
  CHECK(f32_to_bf16(from_bits(0x3f808000u)) == 0x3f80);  // tie: to even (down)
  CHECK(f32_to_bf16(from_bits(0x3f818000u)) == 0x3f82);  // tie: to even (up)
  CHECK(f32_to_bf16(from_bits(0x3f808001u)) == 0x3f81);
  CHECK(f32_to_bf16(from_bits(0x00008000u)) == 0x0000);                 // subnormal tie
  CHECK(f32_to_bf16(from_bits(0x7f7fffffu)) == 0x7f80);                 // max float rounds to inf
  CHECK(std::isnan(bf16_to_f32(f32_to_bf16(from_bits(0x7f800001u)))));  // signalling NaN stays NaN
}

// Quantizes 50 random blocks to `dtype` and back; every value must be within `steps` of the
// block's step (amax / levels) plus the fp16 rounding of the scale (2^-11 relative).
void check_block_error(DType dtype, float levels, float steps) {
  const std::vector<float> x = testing::random_values(32 * 50, 9);
  std::vector<uint8_t> q(dtype_bytes(dtype, 32 * 50));
  from_f32(x.data(), int64_t(x.size()), dtype, q.data());
  const Tensor t = Tensor::borrow(dtype, {int64_t(x.size())}, q.data(), nullptr);
  std::vector<float> back(x.size());
  to_f32(t, 0, int64_t(x.size()), back.data());
  for (size_t b = 0; b < 50; ++b) {
    float amax = 0;
    for (size_t i = 0; i < 32; ++i) amax = std::max(amax, std::fabs(x[b * 32 + i]));
    for (size_t i = 0; i < 32; ++i) {
      REQUIRE(std::fabs(back[b * 32 + i] - x[b * 32 + i]) <= steps * amax / levels + amax * 0.001f);
    }
  }
}

TEST_CASE("q8_0 quantization error stays within half a step of each block's scale") {
  check_block_error(DType::kQ8_0, 127.0f, 0.5f);
}

TEST_CASE("q4_0 quantization error stays within one step of each block's scale") {
  // Half a step from rounding; a full step only where the top nibble clips the value of the
  // other sign at +7 d (d = -max / 8).
  check_block_error(DType::kQ4_0, 8.0f, 1.0f);
}

TEST_CASE("q4_1 quantization error stays within half a step of each block's range") {
  // d = (max - min) / 15 <= 2 amax / 15: half a step is at most amax / 15.
  check_block_error(DType::kQ4_1, 15.0f, 1.0f);
}

TEST_CASE("q4_1 dequantizes as llama.cpp does: nibble times d plus m") {
  uint8_t block[kQ4_1BlockBytes] = {};
  const uint16_t d = f32_to_f16(0.5f), m = f32_to_f16(-2.0f);
  std::memcpy(block, &d, 2);
  std::memcpy(block + 2, &m, 2);
  block[4] = 0x3F;   // weight 0: nibble 15, weight 16: nibble 3
  block[19] = 0x01;  // weight 15: nibble 1, weight 31: nibble 0
  float out[32];
  dequantize_block(block, DType::kQ4_1, out);
  CHECK(out[0] == 5.5f);
  CHECK(out[16] == -0.5f);
  CHECK(out[15] == -1.5f);
  CHECK(out[31] == -2.0f);
  CHECK(out[1] == -2.0f);
}

TEST_CASE("q4_k dequantizes as llama.cpp does: 6-bit scales and minimums packed in 12 bytes") {
  // Scales {1, 2, 3, 63, 17, 33, 48, 5} and minimums {0, 4, 63, 7, 21, 40, 12, 63}, packed by
  // hand: bytes 0-3 and 4-7 hold sub-blocks 0-3 in their low 6 bits and the top 2 bits of
  // sub-blocks 4-7 in their top 2; bytes 8-11 the low 4 bits of 4-7 (scale low, minimum high).
  const uint8_t packed[12] = {0x41, 0x82, 0xC3, 0x3F, 0x40, 0x84,
                              0x3F, 0xC7, 0x51, 0x81, 0xC0, 0xF5};
  const uint8_t scales[8] = {1, 2, 3, 63, 17, 33, 48, 5}, mins[8] = {0, 4, 63, 7, 21, 40, 12, 63};
  for (int s = 0; s < 8; ++s) {
    uint8_t sc, m;
    q4_k_scale_min(packed, s, &sc, &m);
    CHECK(int(sc) == int(scales[s]));
    CHECK(int(m) == int(mins[s]));
  }
  uint8_t repacked[12];
  q4_k_pack_scale_min(scales, mins, repacked);
  CHECK(std::memcmp(repacked, packed, 12) == 0);

  uint8_t block[kQ4_KBlockBytes] = {};
  const uint16_t d = f32_to_f16(0.5f), dmin = f32_to_f16(0.25f);
  std::memcpy(block, &d, 2);
  std::memcpy(block + 2, &dmin, 2);
  std::memcpy(block + 4, packed, 12);
  block[16] = 0x3A;        // value 0 (sub-block 0): nibble 10; value 32 (sub-block 1): 3
  block[16 + 127] = 0xF7;  // value 223 (sub-block 6): 7; value 255 (sub-block 7): 15
  float out[256];
  dequantize_block(block, DType::kQ4_K, out);
  CHECK(out[0] == 5.0f);      // 0.5 * 1 * 10 - 0.25 * 0
  CHECK(out[32] == 2.0f);     // 0.5 * 2 * 3 - 0.25 * 4
  CHECK(out[223] == 165.0f);  // 0.5 * 48 * 7 - 0.25 * 12
  CHECK(out[255] == 21.75f);  // 0.5 * 5 * 15 - 0.25 * 63
  CHECK(out[1] == 0.0f);
  CHECK(out[64] == -15.75f);  // sub-block 2: nibble 0 minus 0.25 * 63
}

TEST_CASE("q4_k quantization fits each sub-block at least as well as q4_1's min-max blocks") {
  // Per sub-block of 32 the fitted scale and minimum, even after their 6-bit rounding, leave a
  // smaller squared error than Q4_1's fp16 min and max; no value strays past its sub-block's
  // range / 15 (one step).
  const int64_t count = 256 * 40;
  const std::vector<float> x = testing::random_values(count, 21);
  auto round_trip = [&](DType dtype) {
    std::vector<uint8_t> q(dtype_bytes(dtype, count));
    from_f32(x.data(), count, dtype, q.data());
    std::vector<float> back(x.size());
    to_f32(Tensor::borrow(dtype, {count}, q.data(), nullptr), 0, count, back.data());
    return back;
  };
  const std::vector<float> k = round_trip(DType::kQ4_K), one = round_trip(DType::kQ4_1);
  double err_k = 0, err_1 = 0;
  for (int64_t b = 0; b < count / 32; ++b) {
    const auto first = x.begin() + b * 32;
    const float range = std::max(*std::max_element(first, first + 32), 0.0f) -
                        std::min(*std::min_element(first, first + 32), 0.0f);
    for (int64_t i = b * 32; i < b * 32 + 32; ++i) {
      err_k += double(k[size_t(i)] - x[size_t(i)]) * (k[size_t(i)] - x[size_t(i)]);
      err_1 += double(one[size_t(i)] - x[size_t(i)]) * (one[size_t(i)] - x[size_t(i)]);
      REQUIRE(std::fabs(k[size_t(i)] - x[size_t(i)]) <= range / 15.0f);
    }
  }
  INFO("squared error q4_k " << err_k << ", q4_1 " << err_1);
  CHECK(err_k < err_1);
}

TEST_CASE("w8a8 converts each row with one scale, its largest magnitude at 127") {
  const Tensor f = testing::random_tensor(DType::kF32, {5, 96}, 31);
  const Tensor q = convert_tensor(f, DType::kW8A8);
  REQUIRE(q.nbytes() == 5 * 3 * kQ8_0BlockBytes);
  const Tensor back = convert_tensor(q, DType::kF32);
  for (int64_t r = 0; r < 5; ++r) {
    const uint8_t* row = q.data<uint8_t>() + r * 3 * kQ8_0BlockBytes;
    float amax = 0;
    int top = 0;
    for (int64_t j = 0; j < 96; ++j) amax = std::max(amax, std::fabs(f.data<float>()[r * 96 + j]));
    for (int b = 0; b < 3; ++b) {
      CHECK(std::memcmp(row, row + b * kQ8_0BlockBytes, 2) == 0);  // one scale per row
      for (int i = 0; i < 32; ++i) {
        top = std::max(top, std::abs(int(int8_t(row[b * kQ8_0BlockBytes + 2 + i]))));
      }
    }
    CHECK(top == 127);
    uint16_t d16;
    std::memcpy(&d16, row, 2);
    for (int64_t j = 0; j < 96; ++j) {  // half a step, plus the fp16 rounding of the scale
      REQUIRE(std::fabs(back.data<float>()[r * 96 + j] - f.data<float>()[r * 96 + j]) <=
              0.5f * f16_to_f32(d16) + amax * 0.001f);
    }
  }
}

TEST_CASE("convert_tensor preserves shape and values across dtypes") {
  const Tensor f = testing::random_tensor(DType::kF32, {3, 64}, 4);
  for (DType d : {DType::kF16, DType::kBF16}) {
    const Tensor c = convert_tensor(f, d);
    CHECK(c.shape() == f.shape());
    const Tensor back = convert_tensor(c, DType::kF32);
    for (int64_t i = 0; i < f.numel(); ++i) {
      const float rel = d == DType::kF16 ? 1.0f / 2048 : 1.0f / 256;
      CHECK(std::fabs(back.data<float>()[i] - f.data<float>()[i]) <=
            rel * std::fabs(f.data<float>()[i]));
    }
  }
}

}  // namespace
}  // namespace infergate
