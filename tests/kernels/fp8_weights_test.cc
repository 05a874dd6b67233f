// FP8 weights (DType::kFP8): the block format, the 128x128 tile quantizer, the grouped layout
// and the fp8 linear kernels at every ISA level against the plain reference.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/fp8_blocks.h"
#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_kernels.h"
#include "kernels/cpu/fp8_layout.h"
#include "kernels/cpu/linear.h"
#include "kernels/cpu/packed_weight.h"
#include "test_util.h"

namespace infergate {
namespace {

using testing::IsaLevels;
using testing::random_tensor;
using testing::random_values;

float block_scale(const uint8_t* block) {
  float s;
  std::memcpy(&s, block, 4);
  return s;
}

TEST_CASE("an fp8 block maps its largest magnitude to 448 and keeps every code's value") {
  std::vector<float> x = random_values(kFp8Block, 3);
  x[17] = -2.5f;  // the block's largest magnitude
  std::array<uint8_t, kFp8BlockBytes> block{};
  quantize_block_fp8(x.data(), block.data());
  CHECK(block_scale(block.data()) == 2.5f / 448.0f);
  CHECK(block[4 + 17] == 0xFE);  // -448
  std::vector<float> back(kFp8Block);
  dequantize_block_fp8(block.data(), back.data());
  for (int64_t i = 0; i < kFp8Block; ++i) {
    INFO("value " << i);
    CHECK(back[size_t(i)] == block_scale(block.data()) * fp8_e4m3_to_f32(block[size_t(4 + i)]));
    // e4m3 keeps 3 mantissa bits: half a step is 1/16 of the value (subnormals: 2^-10 scale).
    CHECK(std::fabs(back[size_t(i)] - x[size_t(i)]) <=
          std::fabs(x[size_t(i)]) / 16 + block_scale(block.data()) * 0.001f);
  }
  std::vector<float> zeros(kFp8Block, 0.0f);
  quantize_block_fp8(zeros.data(), block.data());
  CHECK(block_scale(block.data()) == 0.0f);
}

TEST_CASE("an fp8 matrix gets one scale per 128x128 tile, DeepSeek-V3's block layout") {
  const int64_t n = 130, k = 256;  // two row bands (128 + 2), two column blocks
  Tensor f = random_tensor(DType::kF32, {n, k}, 11);
  f.mutable_data<float>()[5 * k + 3] = 7.0f;       // tile (0, 0)'s maximum
  f.mutable_data<float>()[129 * k + 200] = -3.0f;  // tile (1, 1)'s
  const Tensor w = convert_tensor(f, DType::kFP8);
  REQUIRE(w.nbytes() == size_t(n * (k / kFp8Block)) * kFp8BlockBytes);
  auto scale_at = [&](int64_t row, int64_t b) {
    return block_scale(w.data<uint8_t>() + (row * 2 + b) * int64_t(kFp8BlockBytes));
  };
  CHECK(scale_at(0, 0) == 7.0f / 448.0f);
  CHECK(scale_at(127, 0) == 7.0f / 448.0f);
  CHECK(scale_at(129, 1) == 3.0f / 448.0f);
  CHECK(scale_at(128, 1) == 3.0f / 448.0f);
  CHECK(scale_at(0, 1) != scale_at(0, 0));
  CHECK(scale_at(128, 0) != scale_at(0, 0));
}

TEST_CASE("fp8 rows must be whole 128-value blocks") {
  const Tensor f = random_tensor(DType::kF32, {4, 96}, 1);
  CHECK_THROWS_WITH(convert_tensor(f, DType::kFP8),
                    Catch::Contains("fp8 needs a multiple of 128 elements, got"));
}

TEST_CASE("the grouped fp8 layout holds the file's bytes") {
  for (int64_t n : {1, 8, 13}) {
    const Tensor w = random_tensor(DType::kFP8, {n, 384}, uint32_t(20 + n));
    const Tensor back = prepare_weight(w).unpack();
    REQUIRE(back.nbytes() == w.nbytes());
    CHECK(std::memcmp(back.raw(), w.raw(), w.nbytes()) == 0);
  }
}

// A random fp8 matrix whose rows' blocks all have different scales (random_tensor gives each
// 128x128 tile one scale, so a kernel that applied a neighbour row's would pass unseen).
Tensor random_fp8(int64_t n, int64_t k, uint32_t seed) {
  Tensor w = random_tensor(DType::kFP8, {n, k}, seed);
  uint8_t* block = w.mutable_data<uint8_t>();
  for (int64_t i = 0; i < n * (k / kFp8Block); ++i, block += kFp8BlockBytes) {
    const float scale = block_scale(block) * (1.0f + 0.125f * float(i % 13));
    std::memcpy(block, &scale, 4);
  }
  return w;
}

// x as `kernels` multiply it: rounded to bf16 where they round it (fp8_bf16.cc).
std::vector<float> activations_for(const detail::Fp8Kernels& kernels, std::vector<float> x) {
  if (kernels.bf16_activations) {
    for (float& v : x) v = bf16_to_f32(f32_to_bf16(v));
  }
  return x;
}

// The fp8 linear of `level` on x's m rows against the plain reference on the activations that
// level multiplies: |y - reference| <= 1e-5 of sum_j |x_j w_j|. Every product is exact in fp32,
// what remains is fp32 rounding of the sums over each block's quads and over blocks.
void check_close(IsaLevel level, const std::vector<float>& x, const Tensor& w, int64_t m,
                 const std::vector<float>& got, const std::string& what) {
  const std::vector<float> seen = activations_for(detail::fp8_kernels_for(level), x);
  std::vector<float> want(got.size());
  linear_reference(seen.data(), m, w, want.data());
  testing::require_close(seen.data(), w, m, got, want, what, 1e-5);
}

TEST_CASE("fp8 linear matches the plain reference at every shape and ISA") {
  IsaLevels isa;
  ThreadPool pool(3);
  uint32_t seed = 300;
  // m: the GEMV, every remainder of the 6- and 2-row tiles, more than one 64-row pass; n: a
  // partial row group, several; k: one block and several.
  const std::vector<std::array<int64_t, 3>> shapes = {{1, 1, 128},  {1, 37, 384},  {1, 768, 768},
                                                      {2, 9, 256},  {3, 40, 128},  {5, 7, 1024},
                                                      {7, 16, 256}, {13, 33, 384}, {65, 11, 128}};
  for (auto [m, n, k] : shapes) {
    const Tensor w = random_fp8(n, k, seed++);
    const std::vector<float> x = random_values(m * k, seed++);
    const PackedWeight packed = prepare_weight(w);
    for (IsaLevel level : isa.levels()) {
      set_isa_level(level);
      const std::string what = std::string(isa_name(level)) + " m=" + std::to_string(m) +
                               " n=" + std::to_string(n) + " k=" + std::to_string(k);
      std::vector<float> got(static_cast<size_t>(m * n), 12345.0f);
      linear(x.data(), m, packed, got.data(), pool);
      check_close(level, x, w, m, got, what + " packed");
      std::fill(got.begin(), got.end(), 12345.0f);
      linear(x.data(), m, w, got.data(), pool);  // row-major, repacked per call
      check_close(level, x, w, m, got, what + " row-major");
    }
  }
}

TEST_CASE("every fp8 kernel table this CPU runs matches the plain reference") {
  // fp8_kernels_for picks one table per level (VBMI over the fp16 route at avx512); each is
  // checked here on its own, on the packed groups.
  std::vector<std::pair<const char*, const detail::Fp8Kernels*>> tables = {
      {"generic", &detail::generic_fp8_kernels()}};
  if (detected_isa() >= IsaLevel::kAvx2) {
    tables.emplace_back("avx2", &detail::avx2_fp8_kernels());
  }
  if (detected_isa() >= IsaLevel::kAvx512)
    tables.emplace_back("avx512", &detail::avx512_fp8_kernels());
  if (cpu_has_avx512_vbmi()) tables.emplace_back("avx512-vbmi", &detail::vbmi_fp8_kernels());
  if (cpu_has_avx512_vbmi() && cpu_has_avx512_bf16()) {
    tables.emplace_back("avx512-bf16", &detail::bf16_fp8_kernels());
  }
#if defined(__aarch64__)
  tables.emplace_back("neon", &detail::neon_fp8_kernels());
#endif
  uint32_t seed = 500;
  for (const auto& [name, kernels] : tables) {
    for (const auto& [m, n, k] : std::vector<std::array<int64_t, 3>>{
             {1, 9, 256}, {2, 16, 128}, {3, 7, 384}, {8, 13, 640}, {9, 5, 256}}) {
      const Tensor w = random_fp8(n, k, seed++);
      const std::vector<float> x = random_values(m * k, seed++);
      const std::vector<float> seen = activations_for(*kernels, x);
      std::vector<float> want(static_cast<size_t>(m * n)), got(want.size(), 12345.0f);
      linear_reference(seen.data(), m, w, want.data());
      const PackedWeight packed = prepare_weight(w);
      kernels->dot_groups(x.data(), m, k, packed.storage().data<uint8_t>(), (n + 7) / 8, n,
                          got.data(), n);
      testing::require_close(seen.data(), w, m, got, want,
                             std::string(name) + " m=" + std::to_string(m) +
                                 " n=" + std::to_string(n) + " k=" + std::to_string(k),
                             1e-5);
    }
  }
}

// A row of 256 codes, scale 2^-4: code j is `code_at(j)`.
template <typename CodeAt>
Tensor one_row_of_codes(CodeAt code_at) {
  const int64_t k = 256;
  Tensor w = Tensor::zeros(DType::kFP8, {1, k});
  uint8_t* p = w.mutable_data<uint8_t>();
  for (int64_t b = 0; b < 2; ++b) {
    uint8_t* block = p + b * int64_t(kFp8BlockBytes);
    const float scale = 0.0625f;
    std::memcpy(block, &scale, 4);
    for (int64_t j = 0; j < kFp8Block; ++j) block[4 + j] = code_at(b * kFp8Block + j);
  }
  return w;
}

// Every level's linear of x = e_j gives exactly 2^-4 times code j's value, for every j.
void require_exact_codes(const Tensor& w) {
  const int64_t k = w.dim(1);
  IsaLevels isa;
  ThreadPool pool(1);
  const PackedWeight packed = prepare_weight(w);
  std::vector<float> x(size_t(k), 0.0f);
  for (int64_t j = 0; j < k; ++j) {
    x.assign(size_t(k), 0.0f);
    x[size_t(j)] = 1.0f;
    const uint8_t code =
        w.data<uint8_t>()[(j / kFp8Block) * int64_t(kFp8BlockBytes) + 4 + j % kFp8Block];
    const float want = 0.0625f * fp8_e4m3_to_f32(code);
    for (IsaLevel level : isa.levels()) {
      set_isa_level(level);
      float got = -1;
      linear(x.data(), 1, packed, &got, pool);
      INFO("code " << int(code) << " at " << isa_name(level));
      REQUIRE(got == want);
    }
  }
}

TEST_CASE("fp8 linear widens subnormal and negative codes exactly") {
  // Every finite code once (zeros, subnormals, both signs, 448): blocks the AVX2 kernels take
  // through fp16.
  require_exact_codes(
      one_row_of_codes([](int64_t j) { return uint8_t(is_fp8_e4m3_nan(uint8_t(j)) ? 0 : j); }));
}

TEST_CASE("fp8 linear widens every code but the subnormals exactly") {
  // No subnormal code: the AVX2 kernels' shifts take these blocks (every finite code with a
  // nonzero exponent field, and both zeros, cycled).
  std::vector<uint8_t> normal;
  for (int c = 0; c < 256; ++c) {
    if (!detail::fp8_is_subnormal(uint8_t(c)) && !is_fp8_e4m3_nan(uint8_t(c))) {
      normal.push_back(uint8_t(c));
    }
  }
  require_exact_codes(
      one_row_of_codes([&](int64_t j) { return normal[size_t(j) % normal.size()]; }));
}

TEST_CASE("a packed fp8 scale's sign flags a block with a subnormal code or a large scale") {
  // 13 rows (a full row group and a partial one), two blocks each; (row, block) pairs in
  // `flagged` get one subnormal code, or a scale of 2^8 or more; zero codes flag nothing.
  // Unpacking clears the flags: the file's bytes come back.
  const int64_t n = 13;
  Tensor w = random_tensor(DType::kFP8, {n, 256}, 77);
  uint8_t* p = w.mutable_data<uint8_t>();
  const auto code = [&](int64_t row, int64_t j) -> uint8_t& {
    return p[(row * 2 + j / kFp8Block) * int64_t(kFp8BlockBytes) + 4 + j % kFp8Block];
  };
  const std::vector<std::array<int64_t, 2>> flagged = {{1, 1}, {2, 0}, {5, 1},
                                                       {6, 1}, {9, 0}, {12, 0}};
  for (const auto& [row, b] : flagged) {
    if (row == 9) {
      const float large = detail::kFp8ShiftedScaleLimit;
      std::memcpy(p + (row * 2 + b) * int64_t(kFp8BlockBytes), &large, 4);
    } else {
      code(row, b * kFp8Block + 7 * row) = row % 2 ? 0x01 : 0x83;  // 2^-9, -3/8 * 2^-6
    }
  }
  code(3, 5) = 0x00;  // zeros take the shifts
  code(4, 200) = 0x80;
  const PackedWeight packed = prepare_weight(w);
  const uint8_t* groups = packed.storage().data<uint8_t>();
  for (int64_t row = 0; row < n; ++row) {
    for (int64_t b = 0; b < 2; ++b) {
      float scale;
      std::memcpy(&scale,
                  groups + ((row / 8) * 2 + b) * detail::kFp8GroupBlockBytes + 4 * (row % 8), 4);
      INFO("row " << row << " block " << b);
      CHECK(std::signbit(scale) == (std::find(flagged.begin(), flagged.end(),
                                              std::array<int64_t, 2>{row, b}) != flagged.end()));
    }
  }
  const Tensor back = packed.unpack();
  CHECK(std::memcmp(back.raw(), w.raw(), w.nbytes()) == 0);
  // Flagged and unflagged blocks of one row group (both routes into the same sums), for the
  // GEMV, the pairs and the widened blocks of many rows.
  IsaLevels isa;
  ThreadPool pool(1);
  for (int64_t m : {1, 2, 3, 7}) {
    const std::vector<float> x = random_values(m * 256, uint32_t(78 + m));
    std::vector<float> got(size_t(m * n), 12345.0f);
    for (IsaLevel level : isa.levels()) {
      set_isa_level(level);
      linear(x.data(), m, packed, got.data(), pool);
      check_close(level, x, w, m, got,
                  std::string("mixed blocks at ") + isa_name(level) + " m=" + std::to_string(m));
    }
  }
}

TEST_CASE("a negative fp8 scale is folded into its codes' signs, not read as a flag") {
  // Loaders refuse negative scales; a tensor that holds one anyway still computes its values.
  Tensor w = random_tensor(DType::kFP8, {3, 256}, 90);
  uint8_t* p = w.mutable_data<uint8_t>();
  const float negative = -0.01f;
  std::memcpy(p + 3 * int64_t(kFp8BlockBytes), &negative, 4);  // row 1, block 1
  const std::vector<float> x = random_values(256, 91);
  std::vector<float> got(3, 12345.0f);
  IsaLevels isa;
  ThreadPool pool(1);
  const PackedWeight packed = prepare_weight(w);
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    linear(x.data(), 1, packed, got.data(), pool);
    check_close(level, x, w, 1, got, std::string("negative scale at ") + isa_name(level));
  }
}

TEST_CASE("the fp8 GEMV keeps its precision on activation rows of any magnitude") {
  // The AVX2 GEMV scales its row to just under 2^62 for the shifts (fp8_avx2.cc): rows far
  // below and far above that keep every product normal. One row alone (the GEMV) and the last,
  // odd row of three.
  const Tensor w = random_fp8(11, 384, 95);
  const PackedWeight packed = prepare_weight(w);
  IsaLevels isa;
  ThreadPool pool(1);
  for (const float magnitude : {0x1p-100f, 0x1p-30f, 1.0f, 0x1p70f, 0x1p100f}) {
    for (int64_t m : {1, 3}) {
      std::vector<float> x = random_values(m * 384, 96);
      for (float& v : x) v *= magnitude;
      std::vector<float> got(size_t(m * 11), 12345.0f);
      for (IsaLevel level : isa.levels()) {
        set_isa_level(level);
        linear(x.data(), m, packed, got.data(), pool);
        std::ostringstream what;
        what << "activations of " << magnitude << " at " << isa_name(level) << " m=" << m;
        check_close(level, x, w, m, got, what.str());
      }
    }
  }
}

}  // namespace
}  // namespace infergate
