#include "kernels/cpu/moe_routing.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "test_util.h"

namespace infergate {
namespace {

// Router logits; every other row rounded to multiples of 0.5 so that ties are common.
std::vector<float> router_logits(int64_t tokens, int experts, uint32_t seed) {
  std::vector<float> x = testing::random_values(tokens * experts, seed);
  for (int64_t t = 0; t < tokens; t += 2) {
    for (int e = 0; e < experts; ++e) {
      float& v = x[size_t(t * experts + e)];
      v = std::round(v * 4.0f) * 0.5f;
    }
  }
  return x;
}

// The obvious way: sort (logit desc, id asc) pairs, softmax in double.
void reference_topk(const float* logits, int experts, int top_k, bool normalize, int32_t* ids,
                    double* weights) {
  std::vector<int> order(static_cast<size_t>(experts));
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return logits[a] > logits[b] || (logits[a] == logits[b] && a < b);
  });
  const float mx = *std::max_element(logits, logits + experts);
  double sum = 0, chosen = 0;
  for (int e = 0; e < experts; ++e) sum += std::exp(double(logits[e]) - mx);
  for (int i = 0; i < top_k; ++i) chosen += std::exp(double(logits[order[size_t(i)]]) - mx) / sum;
  for (int i = 0; i < top_k; ++i) {
    ids[i] = order[size_t(i)];
    const double p = std::exp(double(logits[ids[i]]) - mx) / sum;
    weights[i] = normalize ? p / chosen : p;
  }
}

}  // namespace

TEST_CASE("moe_topk ranks experts like a sort with ties to the lower id, softmax over all") {
  for (int experts : {1, 8, 60}) {
    for (int top_k : {1, 2, 4}) {
      if (top_k > experts) continue;
      for (bool normalize : {false, true}) {
        INFO("experts " << experts << ", top_k " << top_k << ", normalize " << normalize);
        const int64_t tokens = 37;
        std::vector<float> logits = router_logits(tokens, experts, uint32_t(experts * 10 + top_k));
        std::fill_n(logits.begin(), experts, 0.25f);  // token 0: every expert tied
        std::vector<int32_t> ids(size_t(tokens * top_k));
        std::vector<float> w(ids.size());
        moe_topk(logits.data(), tokens, experts, top_k, normalize, ids.data(), w.data());
        std::vector<int32_t> want_ids(static_cast<size_t>(top_k));
        std::vector<double> want_w(static_cast<size_t>(top_k));
        for (int64_t t = 0; t < tokens; ++t) {
          INFO("token " << t);
          reference_topk(logits.data() + t * experts, experts, top_k, normalize, want_ids.data(),
                         want_w.data());
          for (int i = 0; i < top_k; ++i) {
            REQUIRE(ids[size_t(t * top_k + i)] == want_ids[size_t(i)]);
            REQUIRE(std::fabs(w[size_t(t * top_k + i)] - want_w[size_t(i)]) <= 1e-6);
          }
        }
        for (int i = 0; i < top_k; ++i) CHECK(ids[size_t(i)] == i);  // the all-tied token
      }
    }
  }
}

TEST_CASE("moe_topk rejects top_k outside [1, num_experts]") {
  const std::vector<float> logits(8, 1.0f);
  std::vector<int32_t> ids(16);
  std::vector<float> w(16);
  CHECK_THROWS_AS(moe_topk(logits.data(), 1, 8, 9, true, ids.data(), w.data()),
                  std::invalid_argument);
  CHECK_THROWS_AS(moe_topk(logits.data(), 1, 8, 0, true, ids.data(), w.data()),
                  std::invalid_argument);
}

TEST_CASE("moe_permute groups rows by expert, in increasing (token, j) order within each") {
  for (int experts : {1, 8, 60}) {
    const int top_k = std::min(experts, 4);
    const int64_t tokens = 257, rows = tokens * top_k;
    std::vector<int32_t> ids(static_cast<size_t>(rows));
    std::vector<float> w(ids.size());
    const std::vector<float> logits = router_logits(tokens, experts, uint32_t(experts));
    moe_topk(logits.data(), tokens, experts, top_k, true, ids.data(), w.data());
    const MoePermutation p = moe_permute(ids.data(), tokens, top_k, experts);
    INFO("experts " << experts);
    REQUIRE(p.expert_offsets.size() == size_t(experts) + 1);
    CHECK(p.expert_offsets.front() == 0);
    CHECK(p.expert_offsets.back() == rows);
    std::vector<int64_t> flat_of_row(size_t(rows), -1);  // the inverse of permuted_index
    for (int64_t f = 0; f < rows; ++f) {
      const int64_t row = p.permuted_index[size_t(f)];
      REQUIRE(row >= 0);
      REQUIRE(row < rows);
      REQUIRE(flat_of_row[size_t(row)] == -1);  // a permutation: no row hit twice
      flat_of_row[size_t(row)] = f;
      CHECK(p.source_row[size_t(row)] == f / top_k);
      const int e = ids[size_t(f)];
      CHECK(row >= p.expert_offsets[size_t(e)]);
      CHECK(row < p.expert_offsets[size_t(e) + 1]);
    }
    for (int64_t row = 1; row < rows; ++row) {
      const bool same_expert =
          ids[size_t(flat_of_row[size_t(row)])] == ids[size_t(flat_of_row[size_t(row - 1)])];
      if (same_expert) CHECK(flat_of_row[size_t(row)] > flat_of_row[size_t(row - 1)]);
    }
  }
}

TEST_CASE("moe_permute rejects expert ids outside 0 .. num_experts - 1") {
  const std::vector<int32_t> ids = {0, 3, 4, 1};
  CHECK_THROWS_AS(moe_permute(ids.data(), 2, 2, 4), std::out_of_range);
  const std::vector<int32_t> negative = {0, -1};
  CHECK_THROWS_AS(moe_permute(negative.data(), 1, 2, 4), std::out_of_range);
}

TEST_CASE("gather, per-expert work and unpermute give each token its weighted expert sum") {
  // Expert e scales its rows by (e + 1): the result must be sum_j w_j (e_j + 1) hidden[t].
  const int experts = 60, top_k = 4;
  const int64_t tokens = 33, width = 19, rows = tokens * top_k;
  const std::vector<float> hidden = testing::random_values(tokens * width, 5);
  std::vector<int32_t> ids(static_cast<size_t>(rows));
  std::vector<float> w(ids.size());
  const std::vector<float> logits = router_logits(tokens, experts, 6);
  moe_topk(logits.data(), tokens, experts, top_k, false, ids.data(), w.data());
  const MoePermutation p = moe_permute(ids.data(), tokens, top_k, experts);

  std::vector<float> expert_out(size_t(rows * width));
  moe_gather_rows(hidden.data(), p.source_row.data(), rows, width, expert_out.data());
  for (int e = 0; e < experts; ++e) {
    for (int64_t row = p.expert_offsets[size_t(e)]; row < p.expert_offsets[size_t(e) + 1]; ++row) {
      for (int64_t c = 0; c < width; ++c) expert_out[size_t(row * width + c)] *= float(e + 1);
    }
  }
  std::vector<float> out(size_t(tokens * width), -1.0f);
  moe_unpermute(expert_out.data(), p, w.data(), tokens, top_k, width, out.data());
  for (int64_t t = 0; t < tokens; ++t) {
    double scale = 0;
    for (int j = 0; j < top_k; ++j)
      scale += double(w[size_t(t * top_k + j)]) * (ids[size_t(t * top_k + j)] + 1);
    for (int64_t c = 0; c < width; ++c) {
      const double want = scale * hidden[size_t(t * width + c)];
      REQUIRE(std::fabs(out[size_t(t * width + c)] - want) <= 1e-5 * (std::fabs(want) + 1));
    }
  }
}

}  // namespace infergate
