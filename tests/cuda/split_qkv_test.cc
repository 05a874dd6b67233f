#include "kernels/cuda/split_qkv.h"

#include <catch2/catch.hpp>

#include "kernels/cpu/split_qkv.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

namespace {

// Every output poisoned, split on the GPU, compared with the CPU twin.
void check_split(int64_t rows, int64_t q_width, int64_t kv_width, bool with_bias, uint32_t seed) {
  const std::vector<float> qkv = testing::random_values(rows * (q_width + 2 * kv_width), seed);
  const std::vector<float> bq = testing::random_values(q_width, seed + 1),
                           bk = testing::random_values(kv_width, seed + 2),
                           bv = testing::random_values(kv_width, seed + 3);
  std::vector<float> q(size_t(rows * q_width)), k(size_t(rows * kv_width)), v(k.size());
  split_qkv(qkv.data(), rows, q_width, kv_width, with_bias ? bq.data() : nullptr,
            with_bias ? bk.data() : nullptr, with_bias ? bv.data() : nullptr, q.data(), k.data(),
            v.data());

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dqkv(qkv), dbq(bq), dbk(bk), dbv(bv), dq(q.size()), dk(k.size()),
      dv(v.size());
  for (auto* out : {&dq, &dk, &dv}) out->fill_bytes(testing::kPoison);
  cuda::split_qkv(dqkv.data(), rows, q_width, kv_width, with_bias ? dbq.data() : nullptr,
                  with_bias ? dbk.data() : nullptr, with_bias ? dbv.data() : nullptr, dq.data(),
                  dk.data(), dv.data(), stream.get());
  stream.sync();
  // Copies and one addition each: bit for bit.
  CHECK(dq.to_host() == q);
  CHECK(dk.to_host() == k);
  CHECK(dv.to_host() == v);
}

}  // namespace

TEST_CASE("cuda: split_qkv matches the CPU, with and without biases") {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed);
  check_split(1, 288, 288, false, seed);
  check_split(37, 6 * 48, 2 * 48, true, seed);  // GQA: narrower k and v
  check_split(130, 7, 3, true, seed);           // odd widths
}

}  // namespace infergate
