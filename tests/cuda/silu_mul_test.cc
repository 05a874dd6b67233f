#include "kernels/cuda/silu_mul.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "kernels/cpu/ops.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

TEST_CASE("cuda: silu_mul_rows matches the CPU over a fused gate|up projection") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  constexpr int64_t kRows = 9, kWidth = 1377;
  std::vector<float> gate_up = testing::random_values(kRows * 2 * kWidth, seed);
  for (float& v : gate_up) v *= 6.0f;  // reach SiLU's curved part and both tails
  std::vector<float> expected(kRows * kWidth);
  silu_mul_rows(gate_up.data(), kRows, kWidth, expected.data());

  testing::TestStream stream;
  cuda::DeviceBuffer<float> din(gate_up), dout(expected.size());
  dout.fill_bytes(testing::kPoison);
  cuda::silu_mul_rows(din.data(), kRows, kWidth, dout.data(), stream.get());
  stream.sync();
  CHECK(testing::relative_error(dout.to_host(), expected) < testing::kF32Tolerance);
}

}  // namespace infergate
