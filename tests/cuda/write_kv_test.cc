#include "kernels/cuda/write_kv.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstring>
#include <numeric>

#include "kernels/cpu/paged_attention.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

namespace {

constexpr int kBlocks = 5, kBlockSize = 16, kKvHeads = 3, kHeadDim = 37;
constexpr int64_t kTokens = 29, kWidth = int64_t(kKvHeads) * kHeadDim;
constexpr size_t kCacheElements = size_t(kBlocks) * kBlockSize * kWidth;

// Distinct random slots, every fourth token padding (-1).
std::vector<int64_t> random_slots(uint32_t seed) {
  std::vector<int64_t> all(kBlocks * kBlockSize);
  std::iota(all.begin(), all.end(), 0);
  std::mt19937 rng(seed);
  std::shuffle(all.begin(), all.end(), rng);
  std::vector<int64_t> slots(all.begin(), all.begin() + kTokens);
  for (int64_t t = 0; t < kTokens; t += 4) slots[size_t(t)] = -1;
  return slots;
}

// Runs the CPU write_kv and the GPU one (`gpu_write`) on caches of T that both start poisoned
// (0xFF bytes: NaN in fp32 and bf16), and requires the caches to be bit-identical: untouched
// slots must stay poisoned.
template <typename T, typename GpuWrite>
void check_write_kv(DType dtype, GpuWrite gpu_write) {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  const std::vector<float> k = testing::random_values(kTokens * kWidth, seed);
  const std::vector<float> v = testing::random_values(kTokens * kWidth, seed + 1);
  const std::vector<int64_t> slots = random_slots(seed + 2);

  std::vector<T> k_expected(kCacheElements), v_expected(kCacheElements);
  std::memset(k_expected.data(), testing::kPoison, kCacheElements * sizeof(T));
  std::memset(v_expected.data(), testing::kPoison, kCacheElements * sizeof(T));
  KvLayerView view{k_expected.data(), v_expected.data(), dtype,   kBlocks,
                   kBlockSize,        kKvHeads,          kHeadDim};
  write_kv(k.data(), v.data(), slots.data(), kTokens, view);

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dk(k), dv(v);
  cuda::DeviceBuffer<T> dk_cache(kCacheElements), dv_cache(kCacheElements);
  cuda::DeviceBuffer<int64_t> dslots(slots);
  dk_cache.fill_bytes(testing::kPoison);
  dv_cache.fill_bytes(testing::kPoison);
  gpu_write(dk.data(), dv.data(), dslots.data(), kTokens, kWidth, dk_cache.data(), dv_cache.data(),
            stream.get());
  stream.sync();
  const std::vector<T> k_cache = dk_cache.to_host(), v_cache = dv_cache.to_host();
  CHECK(std::memcmp(k_cache.data(), k_expected.data(), kCacheElements * sizeof(T)) == 0);
  CHECK(std::memcmp(v_cache.data(), v_expected.data(), kCacheElements * sizeof(T)) == 0);
}

}  // namespace

TEST_CASE("cuda: write_kv fills the slots the CPU fills, skips negative ones, touches no other") {
  check_write_kv<float>(DType::kF32, cuda::write_kv);
}

TEST_CASE("cuda: write_kv into a bf16 cache rounds exactly as the CPU") {
  check_write_kv<uint16_t>(DType::kBF16, cuda::write_kv_bf16);
}

TEST_CASE("cuda: write_kv into an f16 cache rounds exactly as the CPU") {
  check_write_kv<uint16_t>(DType::kF16, cuda::write_kv_f16);
}

TEST_CASE("cuda: write_kv_f16 rounds ties, subnormals and overflow as the CPU's f32_to_f16") {
  // Ties to even both ways, the largest finite half and the first value rounding to infinity,
  // subnormals, values flushing to (signed) zero.
  const std::vector<float> k = {1.0f + 0x1p-11f, 1.0f + 0x3p-11f, 65504.0f,  65519.0f, 65520.0f,
                                -1e6f,           0x1p-24f,        0x3p-25f,  0x1p-25f, -0x1p-26f,
                                1e-8f,           -0.0f,           0.333333f, 1e-5f};
  const int64_t n = int64_t(k.size());
  std::vector<float> v(k.rbegin(), k.rend());
  std::vector<int64_t> slots(k.size());
  std::iota(slots.begin(), slots.end(), 0);
  testing::TestStream stream;
  cuda::DeviceBuffer<float> dk(k), dv(v);
  cuda::DeviceBuffer<int64_t> dslots(slots);
  cuda::DeviceBuffer<uint16_t> dk_cache(k.size()), dv_cache(k.size());
  cuda::write_kv_f16(dk.data(), dv.data(), dslots.data(), n, 1, dk_cache.data(), dv_cache.data(),
                     stream.get());
  stream.sync();
  const std::vector<uint16_t> k_cache = dk_cache.to_host(), v_cache = dv_cache.to_host();
  for (size_t i = 0; i < k.size(); ++i) {
    INFO("k " << k[i] << ", v " << v[i]);
    CHECK(k_cache[i] == f32_to_f16(k[i]));
    CHECK(v_cache[i] == f32_to_f16(v[i]));
  }
}

}  // namespace infergate
