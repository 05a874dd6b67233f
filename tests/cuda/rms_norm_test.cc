#include "kernels/cuda/rms_norm.h"

#include <catch2/catch.hpp>

#include "kernels/cpu/ops.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

// Odd sizes: dim is not a multiple of the block (256) or the warp, and rows is not round.
constexpr int64_t kRows = 7, kDim = 4099;
constexpr float kEps = 1e-5f;

TEST_CASE("cuda: rms_norm matches the CPU, out of place and in place") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  const std::vector<float> x = testing::random_values(kRows * kDim, seed);
  const std::vector<float> w = testing::random_values(kDim, seed + 1);
  std::vector<float> expected(x.size());
  rms_norm(x.data(), w.data(), kRows, kDim, kEps, expected.data());

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dx(x), dw(w), dout(x.size());
  dout.fill_bytes(testing::kPoison);
  cuda::rms_norm(dx.data(), dw.data(), kRows, kDim, kEps, dout.data(), stream.get());
  stream.sync();
  CHECK(testing::relative_error(dout.to_host(), expected) < testing::kF32Tolerance);

  cuda::rms_norm(dx.data(), dw.data(), kRows, kDim, kEps, dx.data(), stream.get());
  stream.sync();
  CHECK(testing::relative_error(dx.to_host(), expected) < testing::kF32Tolerance);
}

TEST_CASE("cuda: the fused residual add + rms_norm matches add_inplace then rms_norm") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  const std::vector<float> x = testing::random_values(kRows * kDim, seed);
  const std::vector<float> residual = testing::random_values(kRows * kDim, seed + 1);
  const std::vector<float> w = testing::random_values(kDim, seed + 2);
  std::vector<float> expected_residual = residual, expected_x(x.size());
  add_inplace(expected_residual.data(), x.data(), int64_t(x.size()));
  rms_norm(expected_residual.data(), w.data(), kRows, kDim, kEps, expected_x.data());

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dx(x), dres(residual), dw(w);
  cuda::add_rms_norm(dx.data(), dres.data(), dw.data(), kRows, kDim, kEps, stream.get());
  stream.sync();
  CHECK(testing::relative_error(dres.to_host(), expected_residual) < testing::kF32Tolerance);
  CHECK(testing::relative_error(dx.to_host(), expected_x) < testing::kF32Tolerance);
}

}  // namespace infergate
