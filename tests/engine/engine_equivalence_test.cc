// Greedy tokens must not depend on how the engine is configured: every optimization switch
// on or off, batched or alone, with or without preemption.
#include <catch2/catch.hpp>

#include "engine/core/engine.h"
#include "engine/forward/reference_forward.h"
#include "progress_watchdog.h"
#include "test_models.h"

using namespace infergate;

namespace {

std::vector<std::vector<int32_t>> test_prompts(int count) {
  std::vector<std::vector<int32_t>> prompts;
  const std::vector<int32_t> shared = {
      1,  20, 21, 22, 23, 24, 25, 26, 27,
      28, 29, 30, 31, 32, 33, 34, 35, 36};  // shared prefix longer than a block
  for (int i = 0; i < count; ++i) {
    std::vector<int32_t> p = (i % 2 == 0) ? shared : std::vector<int32_t>{1};
    const int extra = 3 + (i * 7) % 29;
    for (int j = 0; j < extra; ++j) p.push_back(int32_t((i * 131 + j * 17) % 500 + 3));
    prompts.push_back(p);
  }
  return prompts;
}

SamplingParams greedy(int max_tokens) {
  SamplingParams p;
  p.max_tokens = max_tokens;
  p.ignore_eos = true;
  return p;
}

std::vector<std::vector<int32_t>> run(EngineConfig config,
                                      const std::vector<std::vector<int32_t>>& prompts,
                                      bool one_at_a_time = false, Engine** keep = nullptr) {
  config.num_threads = 2;
  static const ModelWeights weights = make_synthetic_model(testing::small_test_config(), 21);
  Engine engine(config, weights);
  std::vector<std::vector<int32_t>> tokens;
  if (one_at_a_time) {
    for (const auto& p : prompts) {
      tokens.push_back(testing::generate_watched(engine, {p}, greedy(12))[0].token_ids);
    }
  } else {
    for (const auto& r : testing::generate_watched(engine, prompts, greedy(12))) {
      tokens.push_back(r.token_ids);
    }
  }
  engine.check_invariants();
  REQUIRE(engine.stats().kv_usage == 0.0);
  (void)keep;
  return tokens;
}

}  // namespace

TEST_CASE("greedy tokens are identical across engine switches", "[engine]") {
  const auto prompts = test_prompts(16);
  EngineConfig base;
  base.block_size = 4;
  base.max_num_batched_tokens = 512;
  const auto expected = run(base, prompts, /*one_at_a_time=*/true);
  for (const auto& t : expected) REQUIRE(t.size() == 12u);

  SECTION("16 requests batched vs one at a time") { REQUIRE(run(base, prompts) == expected); }
  SECTION("contiguous KV vs paged") {
    EngineConfig c = base;
    c.paged_kv = false;
    c.prefix_caching = false;
    c.num_kv_blocks = 64 * 16;
    REQUIRE(run(c, prompts) == expected);
  }
  SECTION("chunked vs unchunked prefill") {
    EngineConfig c = base;
    c.max_num_batched_tokens = 7;  // forces prompts to be split into chunks
    REQUIRE(run(c, prompts) == expected);
    c.chunked_prefill = false;
    c.max_num_batched_tokens = 256;
    REQUIRE(run(c, prompts) == expected);
  }
  SECTION("prefix cache on vs off") {
    EngineConfig c = base;
    c.prefix_caching = false;
    REQUIRE(run(c, prompts) == expected);
  }
  SECTION("static batching vs continuous") {
    EngineConfig c = base;
    c.continuous_batching = false;
    c.max_num_seqs = 5;
    REQUIRE(run(c, prompts) == expected);
  }
  SECTION("a KV pool so small that preemption happens") {
    EngineConfig c = base;
    c.num_kv_blocks = 40;   // 160 tokens for 16 requests of up to ~60 tokens each
    c.max_model_len = 160;  // the most the pool holds (a longer one is refused)
    ModelWeights w = make_synthetic_model(testing::small_test_config(), 21);
    c.num_threads = 2;
    Engine engine(c, w);
    std::vector<std::vector<int32_t>> got;
    for (const auto& r : testing::generate_watched(engine, prompts, greedy(12))) {
      got.push_back(r.token_ids);
    }
    REQUIRE(engine.stats().num_preemptions > 0);
    REQUIRE(got == expected);
    engine.check_invariants();
  }
}

TEST_CASE("engine greedy decode matches the reference forward's argmax", "[engine]") {
  const ModelWeights w = make_synthetic_model(testing::small_test_config(), 21);
  std::vector<int32_t> seq = {1, 5, 9, 200};
  EngineConfig c;
  c.num_threads = 2;
  Engine engine(c, w);
  const auto out = testing::generate_watched(engine, {seq}, greedy(6))[0].token_ids;
  for (int32_t t : out) {
    const std::vector<float> logits = reference_forward(w, seq);
    const float* last = logits.data() + (seq.size() - 1) * 512;
    const int32_t argmax = int32_t(std::max_element(last, last + 512) - last);
    REQUIRE(t == argmax);
    seq.push_back(t);
  }
}

TEST_CASE("prefix cache hits a shared system prompt", "[engine]") {
  const ModelWeights w = make_synthetic_model(testing::small_test_config(), 21);
  EngineConfig c;
  c.block_size = 4;
  c.num_threads = 2;
  Engine engine(c, w);
  std::vector<int32_t> system(33, 7);
  std::vector<int32_t> a = system, b = system;
  a.push_back(100);
  b.push_back(200);
  testing::generate_watched(engine, {a}, greedy(2));
  testing::generate_watched(engine, {b}, greedy(2));
  const PrefixCacheStats s = engine.stats().prefix_cache;
  REQUIRE(s.queries == 68);
  REQUIRE(s.hits == 32);  // 8 full blocks of the shared 33-token prefix
}
