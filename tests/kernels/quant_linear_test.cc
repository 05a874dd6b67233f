#include "kernels/cpu/quant_linear.h"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/cpu/linear.h"
#include "kernels/cpu/packed_weight.h"
#include "kernels/cpu/quant_kernels.h"
#include "test_util.h"

namespace infergate {
namespace {

using testing::IsaLevels;
using testing::random_tensor;
using testing::random_values;

constexpr DType kBlockFormats[] = {DType::kQ8_0,  DType::kQ4_0, DType::kQ4_1, DType::kQ4_K,
                                   DType::kW8A8,  DType::kQ5_0, DType::kQ5_1, DType::kQ2_K,
                                   DType::kQ3_K,  DType::kQ5_K, DType::kQ6_K, DType::kIQ4_NL,
                                   DType::kIQ4_XS};

// |y - reference| <= 2e-6 of sum_j |x_j w_j|: the integer block sums are exact, what remains is
// fp32 rounding of the block scales' products and of the sum over blocks.
void check_close(const std::vector<float>& x, const Tensor& w, int64_t m,
                 const std::vector<float>& got, const std::vector<float>& want,
                 const std::string& what) {
  testing::require_close(x.data(), w, m, got, want, what, 2e-6);
}

TEST_CASE("quantized linear matches its reference for every block format at every shape and ISA") {
  IsaLevels isa;
  ThreadPool pool(3);
  uint32_t seed = 100;
  // m covers the GEMV, every tile remainder (tiles of 3x2 and 4x4) and more than one 64-row
  // pass; k one block, odd block counts and long rows.
  const std::vector<std::array<int64_t, 3>> shapes = {
      {1, 1, 32},   {1, 37, 96},   {1, 768, 768}, {1, 5, 2048}, {2, 33, 64},
      {3, 45, 160}, {4, 40, 608},  {5, 7, 32},    {7, 9, 224},  {13, 33, 256},
      {64, 20, 96}, {65, 11, 128}, {130, 50, 96}};
  for (DType dtype : kBlockFormats) {
    for (auto [m, n, k] : shapes) {
      k = (k + dtype_block_elems(dtype) - 1) / dtype_block_elems(dtype) * dtype_block_elems(dtype);
      const Tensor w = random_tensor(dtype, {n, k}, seed++);
      const std::vector<float> x = random_values(m * k, seed++);
      std::vector<float> want(static_cast<size_t>(m * n));
      linear_reference(x.data(), m, w, want.data());
      const PackedWeight packed = prepare_weight(w);
      CHECK(packed.panelized());
      for (IsaLevel level : isa.levels()) {
        set_isa_level(level);
        const std::string what = std::string(dtype_name(dtype)) + " " + isa_name(level) + " (" +
                                 detail::quant_kernels_name(level) + ") m=" + std::to_string(m) +
                                 " n=" + std::to_string(n) + " k=" + std::to_string(k);
        std::vector<float> got(want.size(), 12345.0f);
        linear(x.data(), m, packed, got.data(), pool);
        check_close(x, w, m, got, want, what);
      }
    }
  }
}

TEST_CASE("every ISA quantizes activations bit-identically to the generic kernel") {
  IsaLevels isa;
  std::vector<float> x = random_values(32 * 9, 5);
  for (int i = 0; i < 32; ++i) x[size_t(32 + i)] = 0.0f;                  // an all-zero block
  for (int i = 0; i < 32; ++i) x[size_t(64 + i)] = 0.5f * float(i - 16);  // ties at x / d = k + 0.5
  x[96] = 1e-30f;                                                         // a tiny block maximum
  const int64_t k = int64_t(x.size()), blocks = k / 32;
  std::vector<int8_t> want_q(x.size()), got_q(x.size());
  std::vector<float> want_d(static_cast<size_t>(blocks)), got_d(want_d.size());
  std::vector<int32_t> want_s(want_d.size()), got_s(want_d.size());
  detail::generic_quant_kernels().quantize_row(x.data(), k, want_q.data(), want_d.data(),
                                               want_s.data());
  for (int64_t b = 0; b < blocks; ++b) {
    int32_t sum = 0;
    for (int i = 0; i < 32; ++i) sum += want_q[size_t(b * 32 + i)];
    REQUIRE(want_s[size_t(b)] == sum);
    for (int i = 0; i < 32; ++i) {
      const float v = want_d[size_t(b)] * want_q[size_t(b * 32 + i)];
      REQUIRE(std::fabs(v - x[size_t(b * 32 + i)]) <= 0.5f * want_d[size_t(b)] * 1.0001f);
    }
  }
  for (IsaLevel level : isa.levels()) {
    INFO(isa_name(level));
    detail::quant_kernels_for(level).quantize_row(x.data(), k, got_q.data(), got_d.data(),
                                                  got_s.data());
    CHECK(got_q == want_q);
    CHECK(got_d == want_d);
    CHECK(got_s == want_s);
  }
}

TEST_CASE("q4_0 blocks are llama.cpp's: scale, nibble order and rounding") {
  // x_j = (j - 16) / 4: the largest magnitude is x_0 = -4, so d = -4 / -8 = 0.5 and nibble
  // q_j = min(15, trunc(x_j / d + 8.5)); values j < 16 in the low nibbles of bytes 0-15.
  float x[32];
  for (int j = 0; j < 32; ++j) x[j] = float(j - 16) / 4.0f;
  uint8_t block[18];
  from_f32(x, 32, DType::kQ4_0, block);
  CHECK(block[0] == 0x00);  // fp16 0.5 = 0x3800, little-endian
  CHECK(block[1] == 0x38);
  CHECK(block[2] == 0x80);   // q_0 = 0, q_16 = 8
  CHECK(block[17] == 0xF8);  // q_15 = 8, q_31 = min(15, 16)
  float back[32];
  dequantize_block(block, DType::kQ4_0, back);
  CHECK(back[0] == -4.0f);
  CHECK(back[31] == 3.5f);  // 4.0 clipped to the top nibble: (15 - 8) * 0.5
}

TEST_CASE("q4_1 blocks are llama.cpp's: scale, minimum, nibble order and rounding") {
  // x_j = (j - 16) / 4: min -4, max 3.75, d = 7.75 / 15 (fp32 for rounding, stored as fp16),
  // nibble q_j = min(15, trunc((x_j - min) / d + 0.5)); j < 16 in the low nibbles.
  float x[32];
  for (int j = 0; j < 32; ++j) x[j] = float(j - 16) / 4.0f;
  uint8_t block[kQ4_1BlockBytes];
  from_f32(x, 32, DType::kQ4_1, block);
  uint16_t d16, m16;
  std::memcpy(&d16, block, 2);
  std::memcpy(&m16, block + 2, 2);
  CHECK(d16 == f32_to_f16(7.75f / 15.0f));
  CHECK(f16_to_f32(m16) == -4.0f);
  CHECK(block[4] == 0x80);   // q_0 = 0, q_16 = trunc(4 / d + 0.5) = 8
  CHECK(block[19] == 0xF7);  // q_15 = trunc(3.75 / d + 0.5) = 7, q_31 = 15
  float back[32];
  dequantize_block(block, DType::kQ4_1, back);
  CHECK(back[0] == -4.0f);
  CHECK(back[31] == Approx(3.75f).epsilon(1e-3));
}

TEST_CASE("quantized linear refuses rows that are not whole blocks, naming the dtype") {
  ThreadPool pool(1);
  std::vector<uint8_t> w(18 * 4);
  std::vector<float> x(40), y(2);
  REQUIRE_THROWS_WITH(
      quant_linear(x.data(), 1, w.data(), false, DType::kQ4_0, 2, 40, y.data(), pool),
      Catch::Contains("q4_0") && Catch::Contains("40 elements") &&
          Catch::Contains("32-element blocks"));
  REQUIRE_THROWS_AS(Tensor::zeros(DType::kQ4_0, {2, 40}), std::invalid_argument);
  std::vector<uint8_t> wk(kQ4_KBlockBytes * 4);
  std::vector<float> xk(288);
  REQUIRE_THROWS_WITH(
      quant_linear(xk.data(), 1, wk.data(), false, DType::kQ4_K, 2, 288, y.data(), pool),
      Catch::Contains("q4_k") && Catch::Contains("288 elements") &&
          Catch::Contains("256-element blocks"));
}

}  // namespace
}  // namespace infergate
