#include "kernels/cuda/embedding.h"

#include <catch2/catch.hpp>

#include "kernels/cpu/ops.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

namespace {

constexpr int64_t kVocab = 211, kDim = 131, kTokens = 23;

std::vector<int32_t> random_ids(uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<int32_t> ids(kTokens);
  for (int32_t& id : ids) id = int32_t(rng() % kVocab);
  return ids;
}

}  // namespace

TEST_CASE("cuda: embedding_lookup gathers the rows the CPU gathers") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  const Tensor table = testing::random_tensor(DType::kF32, {kVocab, kDim}, seed);
  const std::vector<int32_t> ids = random_ids(seed + 1);
  std::vector<float> expected(kTokens * kDim);
  embedding_lookup(table, ids.data(), kTokens, expected.data());

  testing::TestStream stream;
  const float* t = table.data<float>();
  cuda::DeviceBuffer<float> dtable(std::vector<float>(t, t + kVocab * kDim));
  cuda::DeviceBuffer<int32_t> dids(ids);
  cuda::DeviceBuffer<float> dout(expected.size());
  dout.fill_bytes(testing::kPoison);
  cuda::embedding_lookup(dtable.data(), kVocab, kDim, 0, dids.data(), kTokens, dout.data(),
                         stream.get());
  stream.sync();
  CHECK(testing::relative_error(dout.to_host(), expected) < testing::kF32Tolerance);
}

TEST_CASE("cuda: an embedding shard gives zero rows for ids it does not hold, as the CPU") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  constexpr int64_t kShardStart = 70, kShardRows = 67;
  const Tensor shard = testing::random_tensor(DType::kF32, {kShardRows, kDim}, seed);
  const std::vector<int32_t> ids = random_ids(seed + 1);
  std::vector<float> expected(kTokens * kDim);
  embedding_lookup_shard(shard, kShardStart, ids.data(), kTokens, expected.data());

  testing::TestStream stream;
  const float* s = shard.data<float>();
  cuda::DeviceBuffer<float> dshard(std::vector<float>(s, s + kShardRows * kDim));
  cuda::DeviceBuffer<int32_t> dids(ids);
  cuda::DeviceBuffer<float> dout(expected.size());
  dout.fill_bytes(testing::kPoison);
  cuda::embedding_lookup(dshard.data(), kShardRows, kDim, kShardStart, dids.data(), kTokens,
                         dout.data(), stream.get());
  stream.sync();
  CHECK(testing::relative_error(dout.to_host(), expected) < testing::kF32Tolerance);
}

}  // namespace infergate
