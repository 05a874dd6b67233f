#include "kernels/cuda/rope.h"

#include <catch2/catch.hpp>

#include "kernels/cpu/ops.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

TEST_CASE("cuda: rope_neox matches the CPU's rotate-half rotation, scaled frequencies included") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  // 5 rows x 3 heads x 37 pairs = 555 threads: not a multiple of the block.
  constexpr int64_t kRows = 5;
  constexpr int kHeads = 3, kHeadDim = 74;
  // Plain frequencies, then YaRN-like ones: every fourth slowed down and cos/sin scaled.
  RopeFrequencies plain = RopeFrequencies::plain(kHeadDim, 10000.0), scaled = plain;
  for (size_t i = 0; i < scaled.inv_freq.size(); i += 4) scaled.inv_freq[i] /= 8;
  scaled.scale = 1.2f;
  for (const RopeFrequencies& freq : {plain, scaled}) {
    const std::vector<float> x = testing::random_values(kRows * kHeads * kHeadDim, seed);
    std::mt19937 rng(seed);
    std::vector<int32_t> positions(kRows);
    for (int32_t& p : positions) p = int32_t(rng() % 8192);  // large angles, as in long contexts
    std::vector<float> expected = x;
    rope_neox(expected.data(), positions.data(), kRows, kHeads, kHeadDim, freq);

    testing::TestStream stream;
    cuda::DeviceBuffer<float> dx(x);
    cuda::DeviceBuffer<int32_t> dpos(positions);
    cuda::DeviceBuffer<float> dfreq(freq.inv_freq);
    cuda::rope_neox(dx.data(), dpos.data(), kRows, kHeads, kHeadDim, dfreq.data(), freq.scale,
                    stream.get());
    stream.sync();
    CHECK(testing::relative_error(dx.to_host(), expected) < testing::kF32Tolerance);
  }
}

}  // namespace infergate
