#include "kernels/cpu/ops.h"

#include <catch2/catch.hpp>
#include <cfenv>
#include <cmath>
#include <vector>

#include "test_util.h"

namespace infergate {
namespace {

using testing::random_values;

// Requires x to be x0 rotated as rope_neox does: pair i of each head turned by
// pos * inv_freq(i) radians, cos and sin times `scale`, each value within tolerance(pos).
template <class InvFreq, class Tolerance>
void require_rotated(const std::vector<float>& x0, const std::vector<float>& x,
                     const std::vector<int32_t>& pos, int heads, int hd, InvFreq inv_freq,
                     double scale, Tolerance tolerance) {
  for (size_t r = 0; r < pos.size(); ++r) {
    for (int h = 0; h < heads; ++h) {
      for (int i = 0; i < hd / 2; ++i) {
        const double a = double(pos[r]) * inv_freq(i);
        const double c = std::cos(a) * scale, s = std::sin(a) * scale;
        const size_t lo = (r * size_t(heads) + size_t(h)) * size_t(hd) + size_t(i);
        const size_t hi = lo + size_t(hd / 2);
        REQUIRE(std::fabs(x[lo] - (x0[lo] * c - x0[hi] * s)) <= tolerance(pos[r]));
        REQUIRE(std::fabs(x[hi] - (x0[hi] * c + x0[lo] * s)) <= tolerance(pos[r]));
      }
    }
  }
}

TEST_CASE(
    "rms_norm matches the double formula and may run in place, at every ISA level the CPU has") {
  testing::IsaLevels isa;
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    INFO("ISA level " << isa_name(level));
    const int64_t rows = 3, dim = 77;
    std::vector<float> x = random_values(rows * dim, 1);
    const std::vector<float> w = random_values(dim, 2);
    std::vector<float> out(x.size());
    rms_norm(x.data(), w.data(), rows, dim, 1e-5f, out.data());
    for (int64_t r = 0; r < rows; ++r) {
      double ss = 0;
      for (int64_t i = 0; i < dim; ++i)
        ss += double(x[size_t(r * dim + i)]) * x[size_t(r * dim + i)];
      const double inv = 1.0 / std::sqrt(ss / dim + 1e-5);
      for (int64_t i = 0; i < dim; ++i) {
        const double want = x[size_t(r * dim + i)] * inv * w[size_t(i)];
        REQUIRE(std::fabs(out[size_t(r * dim + i)] - want) <= 1e-6 * std::fabs(want) + 1e-7);
      }
    }
    rms_norm(x.data(), w.data(), rows, dim, 1e-5f, x.data());
    CHECK(x == out);
  }
}

TEST_CASE(
    "rope_neox rotates each half-pair by position * theta^(-2i/d), far positions included, at "
    "every ISA level the CPU has") {
  testing::IsaLevels isa;
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    INFO("ISA level " << isa_name(level));
    for (float theta : {10000.0f, 1000000.0f}) {
      const int heads = 3, hd = 64;
      const std::vector<int32_t> pos = {0, 1, 7, 2047, 4000, 3};
      const int64_t rows = int64_t(pos.size());
      const std::vector<float> x0 = random_values(rows * heads * hd, 3);
      std::vector<float> x = x0;
      rope_neox(x.data(), pos.data(), rows, heads, hd, theta);
      require_rotated(
          x0, x, pos, heads, hd, [&](int i) { return std::pow(double(theta), -2.0 * i / hd); }, 1.0,
          // fp32 inv_freq: an angle error of ~pos * 2^-24 radians.
          [](int32_t p) { return 1e-6 + double(p) * 1.2e-7; });
    }
  }
}

TEST_CASE("rope_neox rotates by any given frequencies and scales cos and sin, at every ISA level",
          "[ops]") {
  testing::IsaLevels isa;
  RopeFrequencies f;
  for (int i = 0; i < 16; ++i) f.inv_freq.push_back(1.0f / float(1 + 3 * i));
  f.scale = 1.25f;
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    INFO("ISA level " << isa_name(level));
    const int heads = 2, hd = 32;
    const std::vector<int32_t> pos = {0, 5, 300, 9};
    const int64_t rows = int64_t(pos.size());
    const std::vector<float> x0 = random_values(rows * heads * hd, 4);
    std::vector<float> x = x0;
    rope_neox(x.data(), pos.data(), rows, heads, hd, f);
    require_rotated(
        x0, x, pos, heads, hd, [&](int i) { return double(f.inv_freq[size_t(i)]); }, f.scale,
        [](int32_t) { return 4e-6; });  // fp32 rounding of values up to ~4
    f.inv_freq.pop_back();              // one short of head_dim / 2
    CHECK_THROWS_WITH(rope_neox(x.data(), pos.data(), rows, heads, hd, f),
                      "rope_neox: 15 frequencies for head_dim 32");
    f.inv_freq.push_back(1.0f / 46);
  }
}

TEST_CASE(
    "silu_mul is accurate over the whole input range and silu_mul_rows splits gate|up, at every "
    "ISA level the CPU has") {
  testing::IsaLevels isa;
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    INFO("ISA level " << isa_name(level));
    std::vector<float> g = random_values(1000, 4), u = random_values(1000, 5);
    for (size_t i = 0; i < g.size(); ++i) g[i] *= float(i % 7) * 30.0f;  // up to +-180: clamps
    std::vector<float> out(g.size());
    silu_mul(g.data(), u.data(), int64_t(g.size()), out.data());
    for (size_t i = 0; i < g.size(); ++i) {
      const double want = double(g[i]) / (1.0 + std::exp(-double(g[i]))) * u[i];
      REQUIRE(std::fabs(out[i] - want) <= 2e-6 * std::fabs(want) + 1e-30);
    }
    const int64_t rows = 4, width = 250;
    std::vector<float> gu(static_cast<size_t>(rows * 2 * width));
    for (int64_t r = 0; r < rows; ++r) {
      std::copy_n(g.begin() + r * width, width, gu.begin() + r * 2 * width);
      std::copy_n(u.begin() + r * width, width, gu.begin() + r * 2 * width + width);
    }
    std::vector<float> fused(static_cast<size_t>(rows * width));
    silu_mul_rows(gu.data(), rows, width, fused.data());
    CHECK(fused == out);
    silu_mul_rows(gu.data(), rows, width, gu.data());  // in place
    CHECK(std::vector<float>(gu.begin(), gu.begin() + rows * width) == out);
  }
}

// An intermediate that underflows to a denormal costs a microcode assist per vector on x86: a
// compiler computing the clamped ends of exp() for every lane made silu_mul 12x slower.
TEST_CASE("silu_mul raises no underflow on inputs whose results are normal, at every ISA level") {
  std::vector<float> g = random_values(4096, 11), u = random_values(4096, 12);
  for (float& v : g) v *= 20.0f;  // silu(-20) = -4e-8: far from the denormal range
  for (float& v : u) v = v < 0 ? v - 0.5f : v + 0.5f;
  std::vector<float> out(g.size());
  testing::IsaLevels isa;
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    INFO("ISA level " << isa_name(level));
    std::feclearexcept(FE_ALL_EXCEPT);
    silu_mul(g.data(), u.data(), int64_t(g.size()), out.data());
    CHECK(std::fetestexcept(FE_UNDERFLOW) == 0);
  }
}

TEST_CASE("softmax_inplace and add_inplace, at every ISA level the CPU has") {
  testing::IsaLevels isa;
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    INFO("ISA level " << isa_name(level));
    std::vector<float> x = random_values(50, 6);
    for (float& v : x) v *= 40.0f;
    std::vector<float> y = x;
    softmax_inplace(y.data(), int64_t(y.size()));
    double mx = -1e30, sum = 0;
    for (float v : x) mx = std::max(mx, double(v));
    for (float v : x) sum += std::exp(v - mx);
    for (size_t i = 0; i < x.size(); ++i) {
      REQUIRE(std::fabs(y[i] - std::exp(x[i] - mx) / sum) <= 1e-6);
    }
    std::vector<float> a = random_values(33, 7), b = random_values(33, 8), c = a;
    add_inplace(c.data(), b.data(), 33);
    for (size_t i = 0; i < a.size(); ++i) CHECK(c[i] == a[i] + b[i]);
  }
}

TEST_CASE("embedding_lookup converts rows and rejects ids outside the vocabulary") {
  const Tensor table = testing::random_tensor(DType::kBF16, {10, 8}, 9);
  const int32_t ids[2] = {7, 0};
  std::vector<float> out(16);
  embedding_lookup(table, ids, 2, out.data());
  std::vector<float> row(8);
  to_f32(table, 7 * 8, 8, row.data());
  CHECK(std::vector<float>(out.begin(), out.begin() + 8) == row);
  const int32_t bad[1] = {10};
  CHECK_THROWS_AS(embedding_lookup(table, bad, 1, out.data()), std::out_of_range);
}

}  // namespace
}  // namespace infergate
