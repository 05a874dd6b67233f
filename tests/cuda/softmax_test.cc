#include "kernels/cuda/softmax.h"

#include <catch2/catch.hpp>

#include "kernels/cpu/ops.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

TEST_CASE("cuda: online softmax matches the CPU's, rows shorter and longer than the block") {
  // 37 leaves most threads with no element (an empty running state must merge cleanly); 1 is
  // the degenerate row; 5003 strides several times and ends mid-warp.
  const int64_t n = GENERATE(as<int64_t>{}, 1, 37, 5003);
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed << ", n " << n);
  constexpr int64_t kRows = 6;
  std::vector<float> x = testing::random_values(kRows * n, seed);
  for (float& v : x) v *= 30.0f;  // large logits: exp would overflow without the max shift
  std::vector<float> expected = x;
  for (int64_t r = 0; r < kRows; ++r) softmax_inplace(expected.data() + r * n, n);

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dx(x), dout(x.size());
  dout.fill_bytes(testing::kPoison);
  cuda::softmax_rows(dx.data(), kRows, n, dout.data(), stream.get());
  stream.sync();
  CHECK(testing::relative_error(dout.to_host(), expected) < testing::kF32Tolerance);

  cuda::softmax_rows(dx.data(), kRows, n, dx.data(), stream.get());  // in place
  stream.sync();
  CHECK(testing::relative_error(dx.to_host(), expected) < testing::kF32Tolerance);
}

}  // namespace infergate
