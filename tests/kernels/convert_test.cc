#include "kernels/cpu/convert.h"

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
