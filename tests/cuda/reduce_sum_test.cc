#include "kernels/cuda/reduce_sum.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

namespace {

using SumFn = void (*)(const float*, int64_t, float*, cudaStream_t);

struct Variant {
  const char* name;
  SumFn fn;
  double tolerance;
};

}  // namespace

TEST_CASE("cuda: the three sum reductions agree with a double-precision sum") {
  // One atomicAdd per element is a sequential fp32 sum in some order: its rounding error grows
  // like sqrt(n) * eps relative to the sum (about 2e-5 at a million), hence the looser bound.
  // The block forms add short partial sums and hold the fp32 bound.
  const Variant variant = GENERATE(Variant{"atomic", cuda::reduce_sum_atomic, 1e-4},
                                   Variant{"shared tree", cuda::reduce_sum_shared_tree, 1e-5},
                                   Variant{"warp shuffle", cuda::reduce_sum_warp_shuffle, 1e-5});
  // 1 element; fewer than a block; not a multiple of the block; several strides of the
  // 1024-block grid (262144 threads).
  const int64_t n = GENERATE(as<int64_t>{}, 1, 200, 100003, 1000003);
  const uint32_t seed = testing::fresh_seed();
  INFO(variant.name << ", n " << n << ", seed " << seed);
  std::vector<float> x = testing::random_values(n, seed);
  for (float& v : x) v = std::fabs(v) + 0.5f;  // positive: the bound is relative to the sum
  double expected = 0;
  for (float v : x) expected += v;

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dx(x), dout(1);
  dout.fill_bytes(testing::kPoison);
  variant.fn(dx.data(), n, dout.data(), stream.get());
  stream.sync();
  const double actual = dout.to_host()[0];
  REQUIRE(std::isfinite(actual));
  CHECK(std::fabs(actual - expected) / expected < variant.tolerance);
}

}  // namespace infergate
