#include "kernels/cuda/add.h"

#include <catch2/catch.hpp>

#include "kernels/cpu/ops.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

TEST_CASE("cuda: add_inplace matches the CPU bit for bit") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  constexpr int64_t kCount = 100'003;  // not a multiple of the block
  std::vector<float> x = testing::random_values(kCount, seed);
  const std::vector<float> y = testing::random_values(kCount, seed + 1);
  testing::TestStream stream;
  cuda::DeviceBuffer<float> dx(x), dy(y);
  add_inplace(x.data(), y.data(), kCount);
  cuda::add_inplace(dx.data(), dy.data(), kCount, stream.get());
  stream.sync();
  CHECK(dx.to_host() == x);  // one rounding each, on both sides
}

}  // namespace infergate
