#include "kernels/cpu/linear.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "kernels/cpu/packed_weight.h"
#include "test_util.h"

namespace infergate {
namespace {

using testing::IsaLevels;
using testing::random_tensor;
using testing::random_values;

struct Shape {
  int64_t m, n, k;
};

// Error allowed for y[i, r], relative to sum |x_j w_rj|: fp32 summation over k terms, plus
// 2^-16 on the AMX path (x split into two bf16 halves: see linear_kernels.h).
void check_close(const float* x, const Tensor& w, int64_t m, const std::vector<float>& got,
                 const std::vector<float>& want, const std::string& what, double rel = 2e-6) {
  testing::require_close(x, w, m, got, want, what, rel);
}

const std::vector<Shape>& shapes() {
  // {4, 40, 601}: a small batch over whole packed panels longer than one widened 16-bit block,
  // the last one odd (linear_neon.cc).
  static const std::vector<Shape> s = {{1, 1, 1},     {1, 37, 70},    {1, 768, 768}, {1, 5, 2048},
                                       {2, 33, 17},   {3, 45, 100},   {4, 40, 601},  {12, 64, 32},
                                       {13, 33, 257}, {32, 100, 300}, {40, 70, 600}, {200, 50, 96},
                                       {25, 3, 5}};
  return s;
}

TEST_CASE("linear matches the double-accumulating reference for every dtype, shape and ISA") {
  IsaLevels isa;
  ThreadPool pool(3);
  uint32_t seed = 1;
  for (DType dtype : {DType::kF32, DType::kF16, DType::kBF16, DType::kQ8_0, DType::kQ4_0,
                      DType::kQ4_1, DType::kQ4_K, DType::kW8A8}) {
    for (Shape s : shapes()) {
      const int64_t block = dtype_block_elems(dtype), k = (s.k + block - 1) / block * block;
      const Tensor w = random_tensor(dtype, {s.n, k}, seed++);
      const std::vector<float> x = random_values(s.m * k, seed++);
      std::vector<float> want(static_cast<size_t>(s.m * s.n));
      linear_reference(x.data(), s.m, w, want.data());
      const PackedWeight packed = prepare_weight(w);
      for (IsaLevel level : isa.levels()) {
        set_isa_level(level);
        const std::string what = std::string(dtype_name(dtype)) + " " + isa_name(level) +
                                 " m=" + std::to_string(s.m) + " n=" + std::to_string(s.n) +
                                 " k=" + std::to_string(k);
        std::vector<float> got(want.size(), 12345.0f);
        linear(x.data(), s.m, w, got.data(), pool);
        check_close(x.data(), w, s.m, got, want, what + " (tensor)");
        std::fill(got.begin(), got.end(), 12345.0f);
        linear(x.data(), s.m, packed, got.data(), pool);
        const bool split = level == IsaLevel::kAmx && dtype == DType::kBF16;
        check_close(x.data(), w, s.m, got, want, what + " (packed)", split ? 2e-6 + 0x1p-16 : 2e-6);
      }
    }
  }
}

TEST_CASE("linear gives the same result on 1, 2 and 5 threads") {
  for (DType dtype : {DType::kBF16, DType::kQ4_0}) {  // float panels and quantized row groups
    const Tensor w = random_tensor(dtype, {300, 192}, 7);
    const std::vector<float> x = random_values(20 * 192, 8);
    std::vector<float> base(20 * 300), got(base.size());
    ThreadPool one(1);
    linear(x.data(), 20, w, base.data(), one);
    for (int threads : {2, 5}) {
      ThreadPool pool(threads);
      linear(x.data(), 20, w, got.data(), pool);
      REQUIRE(got == base);  // the partition never changes a sum's order
    }
  }
}

TEST_CASE("prepare_weight round-trips and stacks rows") {
  for (DType dtype :
       {DType::kF32, DType::kF16, DType::kBF16, DType::kQ8_0, DType::kQ4_0, DType::kQ4_1,
        DType::kQ4_K, DType::kW8A8, DType::kQ5_0, DType::kQ5_1, DType::kQ2_K, DType::kQ3_K,
        DType::kQ5_K, DType::kQ6_K, DType::kIQ4_NL, DType::kIQ4_XS}) {
    INFO(dtype_name(dtype));
    const Tensor a = random_tensor(dtype, {45, 512}, 3), b = random_tensor(dtype, {7, 512}, 4);
    const PackedWeight pa = prepare_weight(a);
    CHECK(pa.rows() == 45);
    CHECK(pa.cols() == 512);
    CHECK(pa.panelized());
    const Tensor back = pa.unpack();
    REQUIRE(back.nbytes() == a.nbytes());
    CHECK(std::memcmp(back.raw(), a.raw(), a.nbytes()) == 0);

    const PackedWeight ab = prepare_weight(std::vector{&a, &b});
    const Tensor stacked = ab.unpack();
    REQUIRE(stacked.dim(0) == 52);
    CHECK(std::memcmp(stacked.raw(), a.raw(), a.nbytes()) == 0);
    CHECK(std::memcmp(static_cast<const uint8_t*>(stacked.raw()) + a.nbytes(), b.raw(),
                      b.nbytes()) == 0);
  }
}

TEST_CASE("prepare_weight rejects weights that cannot be stacked") {
  const Tensor a = random_tensor(DType::kF32, {4, 8}, 1), b = random_tensor(DType::kF32, {4, 9}, 2);
  CHECK_THROWS_AS(prepare_weight(std::vector{&a, &b}), std::invalid_argument);
  CHECK_THROWS_AS(prepare_weight(std::vector<const Tensor*>{}), std::invalid_argument);
}

// llama.cpp's mixtures stack a Q8_0 or Q6_K attn_v under Q5_0 or Q4_K attn_q and attn_k.
TEST_CASE("weights of different dtypes stack: each part computes its own columns") {
  IsaLevels isa;
  ThreadPool pool(3);
  const Tensor q = random_tensor(DType::kQ5_0, {40, 256}, 11);
  const Tensor k = random_tensor(DType::kQ4_K, {9, 256}, 12);
  const Tensor v = random_tensor(DType::kQ6_K, {17, 256}, 13);
  const Tensor f = random_tensor(DType::kBF16, {5, 256}, 14);
  const PackedWeight stacked = prepare_weight(std::vector{&q, &k, &v, &f});
  CHECK(stacked.mixed());
  CHECK(stacked.rows() == 71);
  CHECK(stacked.nbytes() == prepare_weight(q).nbytes() + prepare_weight(k).nbytes() +
                                prepare_weight(v).nbytes() + prepare_weight(f).nbytes());
  CHECK_THROWS_AS(stacked.unpack(), std::invalid_argument);
  for (IsaLevel level : isa.levels()) {
    set_isa_level(level);
    INFO(isa_name(level));
    for (int64_t m : {1, 6}) {
      const std::vector<float> x = random_values(m * 256, 15);
      std::vector<float> got(size_t(m * 71), 12345.0f);
      linear(x.data(), m, stacked, got.data(), pool);
      int64_t column = 0;
      for (const Tensor* part : {&q, &k, &v, &f}) {
        const int64_t n = part->dim(0);
        std::vector<float> want(size_t(m * n));
        linear(x.data(), m, prepare_weight(*part), want.data(), pool);
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t r = 0; r < n; ++r) {
            REQUIRE(got[size_t(i * 71 + column + r)] == want[size_t(i * n + r)]);
          }
        }
        column += n;
      }
    }
  }
}

TEST_CASE("linear with k = 0 writes zeros") {
  ThreadPool pool(2);
  const Tensor w = Tensor::zeros(DType::kF32, {5, 0});
  std::vector<float> y(10, 1.0f);
  linear(nullptr, 2, w, y.data(), pool);
  for (float v : y) CHECK(v == 0.0f);
}

}  // namespace
}  // namespace infergate
