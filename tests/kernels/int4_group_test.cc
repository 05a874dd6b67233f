// Group-wise INT4 (kernels/cpu/int4_group.h): AWQ's scale and zero-point rule, the Q4_1 blocks
// that carry it, and linear computing on them like on any Q4_1 weight.
#include "kernels/cpu/int4_group.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/cpu/convert.h"
#include "kernels/cpu/linear.h"

namespace infergate {
namespace {

std::vector<float> random_row(int64_t n, uint32_t seed, float offset = 0.0f) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> d(offset, 1.0f);
  std::vector<float> v(static_cast<size_t>(n));
  for (float& x : v) x = d(rng);
  return v;
}

TEST_CASE("int4 group parameters follow AWQ's rule") {
  // min -1.5, max 1.5: s = 3 / 15 = 0.2 (as fp16), z = -round(-1.5 / s) = 8 (7.5 rounds to even)
  const std::vector<float> x = {-1.5f, 0.0f, 0.3f, 1.5f};
  const Int4Group g = int4_group_params(x.data(), 4);
  CHECK(g.scale == f16_to_f32(f32_to_f16(0.2f)));
  CHECK(g.zero == int(std::nearbyint(1.5f / g.scale)));
  // All positive: the zero point clamps to 0 and codes start at 0.
  const std::vector<float> pos = {1.0f, 2.0f, 3.0f, 4.0f};
  CHECK(int4_group_params(pos.data(), 4).zero == 0);
}

TEST_CASE("fake int4 keeps every value within half a step of its group") {
  for (int64_t group : {32, 128}) {
    std::vector<float> row = random_row(256, uint32_t(group), 0.3f);
    const std::vector<float> original = row;
    fake_quantize_int4(row.data(), 256, group);
    for (int64_t start = 0; start < 256; start += group) {
      const Int4Group g = int4_group_params(original.data() + start, group);
      std::vector<float> levels;
      for (int64_t i = start; i < start + group; ++i) {
        CHECK(std::fabs(row[size_t(i)] - original[size_t(i)]) <= 0.5f * g.scale * 1.001f);
        levels.push_back(row[size_t(i)]);
      }
      std::sort(levels.begin(), levels.end());
      CHECK(std::unique(levels.begin(), levels.end()) - levels.begin() <= 16);
    }
  }
}

TEST_CASE("int4-g128 as Q4_1 blocks dequantizes to the fake-quantized row") {
  const int64_t k = 256, group = 128;
  const std::vector<float> row = random_row(k, 7);
  std::vector<float> fake = row;
  fake_quantize_int4(fake.data(), k, group);
  std::vector<uint8_t> blocks(size_t(k / kQuantBlock) * kQ4_1BlockBytes);
  quantize_row_int4_as_q4_1(row.data(), k, group, blocks.data());
  // The four blocks of a group repeat one scale and minimum.
  for (int64_t b = 1; b < 4; ++b) {
    CHECK(std::memcmp(blocks.data(), blocks.data() + b * kQ4_1BlockBytes, 4) == 0);
  }
  CHECK(std::memcmp(blocks.data(), blocks.data() + 4 * kQ4_1BlockBytes, 4) != 0);
  std::vector<float> back(static_cast<size_t>(k));
  for (int64_t b = 0; b < k / kQuantBlock; ++b) {
    dequantize_block(blocks.data() + b * kQ4_1BlockBytes, DType::kQ4_1, back.data() + b * 32);
  }
  for (int64_t i = 0; i < k; ++i) {
    const Int4Group g = int4_group_params(row.data() + (i / group) * group, group);
    // m = fp16(-s z): its rounding (2^-11 relative) is the only difference.
    CHECK(std::fabs(back[size_t(i)] - fake[size_t(i)]) <=
          g.scale * float(g.zero) / 1024.0f + 1e-7f);
  }
}

TEST_CASE("linear computes on int4-grouped weights like on any Q4_1 weight") {
  const int64_t rows = 16, k = 256, m = 5;
  Tensor w = Tensor::zeros(DType::kF32, {rows, k});
  for (int64_t r = 0; r < rows; ++r) {
    const std::vector<float> v = random_row(k, uint32_t(100 + r));
    std::copy(v.begin(), v.end(), w.mutable_data<float>() + r * k);
  }
  const Tensor q = quantize_int4_grouped(w, 128);
  REQUIRE(q.dtype() == DType::kQ4_1);
  const std::vector<float> x = random_row(m * k, 9);
  std::vector<float> fast(static_cast<size_t>(m * rows)), ref(fast.size());
  ThreadPool pool(2);
  linear(x.data(), m, q, fast.data(), pool);
  linear_reference(x.data(), m, q, ref.data());
  for (size_t i = 0; i < fast.size(); ++i) CHECK(fast[i] == Approx(ref[i]).margin(1e-3));
}

TEST_CASE("int4 grouping refuses a group that does not fit the row") {
  Tensor w = Tensor::zeros(DType::kF32, {2, 96});
  CHECK_THROWS_WITH(quantize_int4_grouped(w, 128),
                    Catch::Contains("group size 128 must be a positive multiple of 32 dividing "
                                    "the row length 96"));
  CHECK_THROWS_WITH(quantize_int4_grouped(w, 48), Catch::Contains("multiple of 32"));
  CHECK(int4_group_for(96, 128) == 32);
  CHECK(int4_group_for(256, 128) == 128);
}

}  // namespace
}  // namespace infergate
