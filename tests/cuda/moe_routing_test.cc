#include "kernels/cuda/moe_routing.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "kernels/cpu/moe_routing.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

namespace {

constexpr int64_t kHidden = 97;  // odd: rows do not line up with warps or blocks

// Router logits in [-4, 4]; every third token rounded to multiples of 0.5 (ties between
// experts), and token 0 with every expert tied.
std::vector<float> router_logits(int64_t tokens, int experts, uint32_t seed) {
  std::vector<float> x = testing::random_values(tokens * experts, seed);
  for (float& v : x) v *= 4.0f;
  for (int64_t t = 0; t < tokens; t += 3) {
    for (int e = 0; e < experts; ++e) {
      float& v = x[size_t(t * experts + e)];
      v = std::round(v * 2.0f) * 0.5f;
    }
  }
  std::fill_n(x.begin(), experts, 0.75f);
  return x;
}

struct Routing {
  std::vector<int32_t> ids;
  std::vector<float> weights;
};

Routing cpu_route(const std::vector<float>& logits, int64_t tokens, int experts, int top_k,
                  bool normalize) {
  Routing r{std::vector<int32_t>(size_t(tokens * top_k)),
            std::vector<float>(size_t(tokens * top_k))};
  moe_topk(logits.data(), tokens, experts, top_k, normalize, r.ids.data(), r.weights.data());
  return r;
}

cuda::DeviceBuffer<unsigned char> permute_workspace(int64_t tokens, int top_k, int experts) {
  return cuda::DeviceBuffer<unsigned char>(
      cuda::moe_permute_workspace_bytes(tokens, top_k, experts));
}

}  // namespace

TEST_CASE("cuda: moe_topk picks the CPU's experts in its order, weights within 1e-5") {
  const int64_t tokens = GENERATE(as<int64_t>{}, 1, 5, 257);
  const int experts = GENERATE(8, 60, 256);
  const int top_k = GENERATE(1, 2, 4);
  const bool normalize = GENERATE(false, true);
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed << ", tokens " << tokens << ", experts " << experts << ", top_k " << top_k
               << ", normalize " << normalize);
  const std::vector<float> logits = router_logits(tokens, experts, seed);
  const Routing want = cpu_route(logits, tokens, experts, top_k, normalize);

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dlogits(logits), dweights(want.weights.size());
  cuda::DeviceBuffer<int32_t> dids(want.ids.size());
  dids.fill_bytes(testing::kPoison);
  dweights.fill_bytes(testing::kPoison);
  cuda::moe_topk(dlogits.data(), tokens, experts, top_k, normalize, dids.data(), dweights.data(),
                 stream.get());
  stream.sync();
  CHECK(dids.to_host() == want.ids);
  CHECK(testing::relative_error(dweights.to_host(), want.weights) < testing::kF32Tolerance);
}

TEST_CASE("cuda: moe_topk rejects more experts than a warp holds, naming the limit") {
  testing::TestStream stream;
  CHECK_THROWS_WITH(
      cuda::moe_topk(nullptr, 1, cuda::kMoeMaxExperts + 1, 2, true, nullptr, nullptr, stream.get()),
      Catch::Contains(std::to_string(cuda::kMoeMaxExperts)));
  CHECK_THROWS_AS(cuda::moe_topk(nullptr, 1, 8, 9, true, nullptr, nullptr, stream.get()),
                  std::invalid_argument);
}

TEST_CASE("cuda: moe_permute gives exactly the CPU's stable permutation and offsets") {
  const int64_t tokens = GENERATE(as<int64_t>{}, 1, 5, 257);
  const int experts = GENERATE(8, 60);
  const int top_k = GENERATE(1, 2, 4);
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed << ", tokens " << tokens << ", experts " << experts << ", top_k " << top_k);
  const Routing r = cpu_route(router_logits(tokens, experts, seed), tokens, experts, top_k, true);
  const MoePermutation want = moe_permute(r.ids.data(), tokens, top_k, experts);

  testing::TestStream stream;
  cuda::DeviceBuffer<int32_t> dids(r.ids), dsource(r.ids.size()), dindex(r.ids.size());
  cuda::DeviceBuffer<int64_t> doffsets(size_t(experts) + 1);
  cuda::DeviceBuffer<unsigned char> workspace = permute_workspace(tokens, top_k, experts);
  for (auto* b : {&dsource, &dindex}) b->fill_bytes(testing::kPoison);
  doffsets.fill_bytes(testing::kPoison);
  cuda::moe_permute(dids.data(), tokens, top_k, experts, doffsets.data(), dsource.data(),
                    dindex.data(), workspace.data(), stream.get());
  stream.sync();
  CHECK(doffsets.to_host() == want.expert_offsets);
  CHECK(dsource.to_host() == want.source_row);
  CHECK(dindex.to_host() == want.permuted_index);
}

TEST_CASE("cuda: moe_permute of no tokens gives all-zero offsets") {
  constexpr int kExperts = 8;
  testing::TestStream stream;
  cuda::DeviceBuffer<int64_t> doffsets(kExperts + 1);
  doffsets.fill_bytes(testing::kPoison);
  cuda::DeviceBuffer<unsigned char> workspace = permute_workspace(0, 2, kExperts);
  cuda::moe_permute(nullptr, 0, 2, kExperts, doffsets.data(), nullptr, nullptr, workspace.data(),
                    stream.get());
  stream.sync();
  CHECK(doffsets.to_host() == std::vector<int64_t>(kExperts + 1, 0));
}

TEST_CASE("cuda: moe_gather_rows and moe_unpermute match the CPU's") {
  const int64_t tokens = GENERATE(as<int64_t>{}, 1, 5, 257);
  const int experts = GENERATE(8, 60);
  const int top_k = GENERATE(1, 2, 4);
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed << ", tokens " << tokens << ", experts " << experts << ", top_k " << top_k);
  const int64_t rows = tokens * top_k;
  const Routing r = cpu_route(router_logits(tokens, experts, seed), tokens, experts, top_k, true);
  const MoePermutation perm = moe_permute(r.ids.data(), tokens, top_k, experts);
  const std::vector<float> hidden = testing::random_values(tokens * kHidden, seed + 1);
  const std::vector<float> expert_out = testing::random_values(rows * kHidden, seed + 2);
  std::vector<float> gathered(size_t(rows * kHidden)), out(size_t(tokens * kHidden));
  moe_gather_rows(hidden.data(), perm.source_row.data(), rows, kHidden, gathered.data());
  moe_unpermute(expert_out.data(), perm, r.weights.data(), tokens, top_k, kHidden, out.data());

  testing::TestStream stream;
  cuda::DeviceBuffer<float> dhidden(hidden), dexpert_out(expert_out), dweights(r.weights);
  cuda::DeviceBuffer<int32_t> dsource(perm.source_row), dindex(perm.permuted_index);
  cuda::DeviceBuffer<float> dgathered(gathered.size()), dout(out.size());
  dgathered.fill_bytes(testing::kPoison);
  dout.fill_bytes(testing::kPoison);
  cuda::moe_gather_rows(dhidden.data(), dsource.data(), rows, kHidden, dgathered.data(),
                        stream.get());
  cuda::moe_unpermute(dexpert_out.data(), dindex.data(), dweights.data(), tokens, top_k, kHidden,
                      dout.data(), stream.get());
  stream.sync();
  CHECK(dgathered.to_host() == gathered);  // a copy: exact
  CHECK(testing::relative_error(dout.to_host(), out) < testing::kF32Tolerance);
}

}  // namespace infergate
