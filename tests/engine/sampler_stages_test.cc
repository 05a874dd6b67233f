// sample_token's stages (top-k, temperature, top-p, draw) pinned as a whole: the exact tokens
// each stage's path gives, and the one uniform every sampled token consumes. sampler_test.cc
// checks each stage's distribution; these catch any change in the bits.
#include <catch2/catch.hpp>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "engine/request/sampler.h"
#include "engine/request/sampling_params.h"

using namespace infergate;

namespace {

// 32000 logits in [-2, 2) from std::mt19937's raw output: the same inputs on every platform.
std::vector<float> vocabulary_logits() {
  std::mt19937 gen(1);
  std::vector<float> v(32000);
  for (float& x : v) x = -2.0f + 4.0f * static_cast<float>(gen() >> 8) * 0x1.0p-24f;
  return v;
}

std::vector<int32_t> eight_tokens(const std::vector<float>& logits, float temperature, int top_k,
                                  float top_p) {
  SamplingParams p;
  p.temperature = temperature;
  p.top_k = top_k;
  p.top_p = top_p;
  Xoshiro256 rng(2024);
  std::vector<int32_t> out;
  for (int i = 0; i < 8; ++i) {
    out.push_back(sample_token(logits.data(), int32_t(logits.size()), p, rng));
  }
  return out;
}

}  // namespace

TEST_CASE("each sampling stage's path gives the tokens it always gave", "[sampler]") {
  const std::vector<float> logits = vocabulary_logits();
  using Tokens = std::vector<int32_t>;
  // Temperature and the draw alone, over every token in id order.
  CHECK(eight_tokens(logits, 1.0f, 0, 1.0f) ==
        Tokens{1812, 25004, 2334, 5068, 24726, 7816, 12593, 8205});
  // Top-k by the heap (k <= 256), then by nth_element.
  CHECK(eight_tokens(logits, 0.8f, 50, 1.0f) ==
        Tokens{24467, 25056, 5290, 17680, 27740, 14226, 26455, 14226});
  CHECK(eight_tokens(logits, 1.0f, 1000, 1.0f) ==
        Tokens{28021, 9496, 6528, 22981, 8217, 17824, 1350, 10587});
  // Top-p sorting chunk by chunk over the whole vocabulary, and after a top-k cut.
  CHECK(eight_tokens(logits, 1.0f, 0, 0.5f) ==
        Tokens{18352, 9278, 16387, 12877, 23966, 13603, 10668, 3791});
  CHECK(eight_tokens(logits, 0.7f, 300, 0.9f) ==
        Tokens{23566, 733, 26455, 3803, 28671, 29692, 4673, 13081});
}

TEST_CASE("a sampled token consumes one uniform whatever the cuts, a greedy one none",
          "[sampler]") {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> ordinary = vocabulary_logits();
  const std::vector<float> all_masked(100, -inf);
  struct Case {
    const std::vector<float>* logits;
    float temperature;
    int top_k;
    float top_p;
    int uniforms;
  };
  const Case cases[] = {{&ordinary, 0.0f, 0, 1.0f, 0},  {&ordinary, 1.0f, 0, 1.0f, 1},
                        {&ordinary, 1.0f, 1, 1.0f, 1},  {&ordinary, 1.0f, 40, 0.3f, 1},
                        {&ordinary, 1.0f, 0, 1e-6f, 1}, {&all_masked, 1.0f, 0, 1.0f, 1},
                        {&all_masked, 0.0f, 5, 0.5f, 0}};
  for (const Case& c : cases) {
    SamplingParams p;
    p.temperature = c.temperature;
    p.top_k = c.top_k;
    p.top_p = c.top_p;
    Xoshiro256 used(99), expected(99);
    sample_token(c.logits->data(), int32_t(c.logits->size()), p, used);
    for (int i = 0; i < c.uniforms; ++i) expected.uniform();
    CHECK(used.next_u64() == expected.next_u64());
  }
}
