// The scaled KV formats' element codecs: OCP FP8 E4M3 bit for bit, int8 rows with a per-row
// scale, and the fp16 route the vector kernels widen e4m3 through.
#include "kernels/cpu/kv_quant.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "kernels/cpu/convert.h"
#include "test_util.h"

namespace infergate {
namespace {

TEST_CASE("fp8 e4m3 decodes the format's landmarks") {
  CHECK(fp8_e4m3_to_f32(0x00) == 0.0f);
  CHECK(fp8_e4m3_to_f32(0x38) == 1.0f);          // exponent 7 = bias
  CHECK(fp8_e4m3_to_f32(0x7E) == 448.0f);        // the largest finite value
  CHECK(fp8_e4m3_to_f32(0x08) == 0.015625f);     // the smallest normal, 2^-6
  CHECK(fp8_e4m3_to_f32(0x01) == 0.001953125f);  // the smallest subnormal, 2^-9
  CHECK(fp8_e4m3_to_f32(0x07) == 7 * 0.001953125f);
  CHECK(fp8_e4m3_to_f32(0xB8) == -1.0f);
  CHECK(fp8_e4m3_to_f32(0x3C) == 1.5f);
}

TEST_CASE("every finite fp8 e4m3 code encodes back to itself") {
  for (int code = 0; code < 256; ++code) {
    if ((code & 0x7F) == 0x7F) continue;  // NaN
    INFO("code " << code);
    const float v = fp8_e4m3_to_f32(uint8_t(code));
    const uint8_t back = f32_to_fp8_e4m3(v);
    CHECK((back == code || (v == 0 && (back & 0x7F) == 0)));
  }
}

TEST_CASE("fp8 e4m3 encoding rounds to nearest even and saturates") {
  CHECK(f32_to_fp8_e4m3(1.0625f) == 0x38);  // halfway between 1 and 1.125: even mantissa 0
  CHECK(f32_to_fp8_e4m3(1.1875f) == 0x3A);  // halfway between 1.125 and 1.25: even mantissa 2
  CHECK(f32_to_fp8_e4m3(1.07f) == 0x39);
  CHECK(f32_to_fp8_e4m3(1.96875f) == 0x40);  // halfway 1.875 .. 2: rounds up into exponent 8
  CHECK(f32_to_fp8_e4m3(0.015625f * 0.9375f) == 0x08);  // rounds up into the normals
  CHECK(f32_to_fp8_e4m3(1e6f) == 0x7E);
  CHECK(f32_to_fp8_e4m3(-1e6f) == 0xFE);
  CHECK(f32_to_fp8_e4m3(460.0f) == 0x7E);
  CHECK(f32_to_fp8_e4m3(1e-4f) == 0x00);
  CHECK(f32_to_fp8_e4m3(NAN) == 0x7E);  // never produces a NaN code
}

TEST_CASE("the fp16 route widens every e4m3 code to its value divided by 256") {
  for (int code = 0; code < 256; ++code) {
    if ((code & 0x7F) == 0x7F) continue;
    INFO("code " << code);
    CHECK(f16_to_f32(fp8_e4m3_as_f16_bits(uint8_t(code))) * kFp8AsF16Factor ==
          fp8_e4m3_to_f32(uint8_t(code)));
  }
}

TEST_CASE("a quantized KV row maps its largest magnitude to the largest code") {
  const std::vector<float> x = testing::random_values(96, 3);
  float amax = 0;
  for (float v : x) amax = std::max(amax, std::fabs(v));
  std::vector<uint8_t> codes(x.size());
  std::vector<float> back(x.size());
  for (auto [dtype, largest, step] : {std::tuple{DType::kI8, kInt8KvMax, 0.5f / kInt8KvMax},
                                      std::tuple{DType::kF8E4M3, kFp8E4M3Max, 1.0f / 16}}) {
    INFO(dtype_name(dtype));
    const float scale = quantize_kv_row(x.data(), int(x.size()), dtype, codes.data());
    CHECK(scale == Approx(amax / largest));
    dequantize_kv_row(codes.data(), scale, int(x.size()), dtype, back.data());
    for (size_t i = 0; i < x.size(); ++i) {
      // int8: half a step of amax / 127; e4m3: half an ulp, 1/16 of the value (or of 2^-6
      // times the scale below the normals).
      const float tolerance = dtype == DType::kI8
                                  ? amax * step * 1.0001f
                                  : std::max(std::fabs(x[i]) * step, 0.015625f * scale * 0.5f);
      CHECK(std::fabs(back[i] - x[i]) <= tolerance * 1.0001f);
    }
  }
}

TEST_CASE("a row of zeros quantizes to zero codes and a zero scale") {
  const std::vector<float> zeros(32, 0.0f);
  std::vector<uint8_t> codes(32, 9);
  for (DType dtype : {DType::kI8, DType::kF8E4M3}) {
    CHECK(quantize_kv_row(zeros.data(), 32, dtype, codes.data()) == 0.0f);
    for (uint8_t c : codes) CHECK(c == 0);
  }
}

}  // namespace
}  // namespace infergate
