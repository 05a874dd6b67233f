#include "kernels/cuda/convert.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"

namespace infergate {
namespace {

using cuda::GemmDType;

float from_bits(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// The edges of both formats, then random bit patterns (every class: NaNs with payloads,
// infinities, fp32 subnormals, huge values) and random values around 1, odd in number.
std::vector<float> conversion_inputs(uint32_t seed) {
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> v = {0.0f,
                          -0.0f,
                          inf,
                          -inf,
                          std::numeric_limits<float>::quiet_NaN(),
                          from_bits(0x7f800001u),
                          from_bits(0xffc12345u),  // signalling NaN, negative NaN payload
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::denorm_min(),
                          std::numeric_limits<float>::min(),
                          std::numeric_limits<float>::max(),
                          -3e38f,
                          65504.0f,
                          65519.0f,
                          65520.0f,
                          -65520.0f,
                          1e5f,  // f16 max, last below inf, inf
                          5.9604645e-8f,
                          2.9802322e-8f,
                          4.4703484e-8f,  // f16: 2^-24, 2^-25 (tie), 1.5 * 2^-25
                          6.097555e-5f,
                          6.1035156e-5f,  // f16 subnormal / normal boundary
                          from_bits(0x3f808000u),
                          from_bits(0x3f818000u),  // bf16 ties to even, down and up
                          from_bits(0x7f7fffffu),
                          from_bits(0x7f7f8000u)};  // bf16 overflow by rounding
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> around_one(-4.0f, 4.0f);
  for (int i = 0; i < 50001; ++i) v.push_back(from_bits(rng()));
  for (int i = 0; i < 50001; ++i) v.push_back(around_one(rng));
  return v;
}

uint16_t cpu_narrow(float v, GemmDType dtype) {
  return dtype == GemmDType::kBF16 ? f32_to_bf16(v) : f32_to_f16(v);
}

float cpu_widen(uint16_t bits, GemmDType dtype) {
  return dtype == GemmDType::kBF16 ? bf16_to_f32(bits) : f16_to_f32(bits);
}

bool same_bits(const void* a, const void* b, size_t bytes) { return std::memcmp(a, b, bytes) == 0; }

void check_narrow(GemmDType dtype) {
  const uint32_t seed = testing::fresh_seed();
  INFO(cuda::gemm_dtype_name(dtype) << " seed " << seed);
  const std::vector<float> in = conversion_inputs(seed);
  std::vector<uint16_t> expected(in.size());
  for (size_t i = 0; i < in.size(); ++i) expected[i] = cpu_narrow(in[i], dtype);

  testing::TestStream stream;
  cuda::DeviceBuffer<float> din(in);
  cuda::DeviceBuffer<uint16_t> dout(in.size());
  dout.fill_bytes(testing::kPoison);
  cuda::convert_f32_to(din.data(), dout.data(), dtype, int64_t(in.size()), stream.get());
  stream.sync();
  const std::vector<uint16_t> out = dout.to_host();
  CHECK(same_bits(out.data(), expected.data(), out.size() * 2));
  for (size_t i = 0; i < out.size(); ++i) {  // name the first difference
    if (out[i] == expected[i]) continue;
    uint32_t bits;
    std::memcpy(&bits, &in[i], 4);
    FAIL_CHECK("input 0x" << std::hex << bits << ": GPU 0x" << out[i] << ", CPU 0x" << expected[i]);
    break;
  }
}

// Every 16-bit pattern, NaN payloads included.
void check_widen(GemmDType dtype) {
  INFO(cuda::gemm_dtype_name(dtype));
  std::vector<uint16_t> in(65536);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint16_t(i);
  std::vector<float> expected(in.size());
  for (size_t i = 0; i < in.size(); ++i) expected[i] = cpu_widen(in[i], dtype);

  testing::TestStream stream;
  cuda::DeviceBuffer<uint16_t> din(in);
  cuda::DeviceBuffer<float> dout(in.size());
  dout.fill_bytes(testing::kPoison);
  cuda::convert_to_f32(din.data(), dtype, dout.data(), int64_t(in.size()), stream.get());
  stream.sync();
  const std::vector<float> out = dout.to_host();
  CHECK(same_bits(out.data(), expected.data(), out.size() * 4));
}

}  // namespace

TEST_CASE("cuda: convert_f32_to rounds to bf16 and f16 bit for bit as the CPU, NaN included") {
  check_narrow(GemmDType::kBF16);
  check_narrow(GemmDType::kF16);
}

TEST_CASE("cuda: convert_to_f32 widens every bf16 and f16 pattern bit for bit as the CPU") {
  check_widen(GemmDType::kBF16);
  check_widen(GemmDType::kF16);
}

TEST_CASE("cuda: the conversions round-trip and copy f32 unchanged") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  const std::vector<float> in = conversion_inputs(seed);
  const int64_t n = int64_t(in.size());
  testing::TestStream stream;
  cuda::DeviceBuffer<float> din(in), dback(in.size()), dcopy(in.size());
  cuda::DeviceBuffer<uint16_t> dmid(in.size());
  for (GemmDType dtype : {GemmDType::kBF16, GemmDType::kF16}) {
    INFO(cuda::gemm_dtype_name(dtype));
    dback.fill_bytes(testing::kPoison);
    cuda::convert_f32_to(din.data(), dmid.data(), dtype, n, stream.get());
    cuda::convert_to_f32(dmid.data(), dtype, dback.data(), n, stream.get());
    stream.sync();
    std::vector<float> expected(in.size());
    for (size_t i = 0; i < in.size(); ++i) expected[i] = cpu_widen(cpu_narrow(in[i], dtype), dtype);
    const std::vector<float> back = dback.to_host();
    CHECK(same_bits(back.data(), expected.data(), back.size() * 4));
  }
  dcopy.fill_bytes(testing::kPoison);
  cuda::convert_f32_to(din.data(), dcopy.data(), GemmDType::kF32, n, stream.get());
  stream.sync();
  const std::vector<float> copy = dcopy.to_host();
  CHECK(same_bits(copy.data(), in.data(), in.size() * 4));
  CHECK_THROWS_AS(cuda::convert_f32_to(din.data(), dmid.data(), GemmDType::kBF16, -1, stream.get()),
                  std::invalid_argument);
}

}  // namespace infergate
