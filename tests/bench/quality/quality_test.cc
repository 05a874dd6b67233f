#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "bench/quality/evaluate_quality.h"
#include "bench/quality/quality_metrics.h"
#include "engine/model/model_loader.h"

namespace infergate {
namespace {

TEST_CASE("quality metrics follow llama.cpp's definitions on a hand-computed case") {
  // Baseline p = (1/2, 1/2); model q = (3/4, 1/4); the next token is 0.
  const float base[2] = {0.0f, 0.0f};
  const float model[2] = {float(std::log(3.0)), 0.0f};
  QualityAccumulator acc;
  acc.add(base, model, 2, 0);
  const QualitySummary s = acc.summary();
  REQUIRE(s.positions == 1);
  // KL(p || q) = 1/2 ln(2/3) + 1/2 ln(2)
  CHECK(s.kl_divergence.mean == Approx(0.5 * std::log(2.0 / 3.0) + 0.5 * std::log(2.0)));
  CHECK(s.perplexity == Approx(4.0 / 3.0));  // exp(-ln 3/4)
  CHECK(s.baseline_perplexity == Approx(2.0));
  CHECK(s.top1_agreement == 1.0);  // both argmax 0 (a tie takes the first)
}

TEST_CASE("identical models have zero KL divergence, equal perplexity and full agreement") {
  const float a[3] = {0.5f, -1.0f, 2.0f};
  QualityAccumulator acc;
  acc.add(a, a, 3, 1);
  acc.add(a, a, 3, 2);
  const QualitySummary s = acc.summary();
  CHECK(s.kl_divergence.max == 0.0);
  CHECK(s.perplexity == s.baseline_perplexity);
  CHECK(s.top1_agreement == 1.0);
}

ModelWeights tiny() {
  ModelSource s;
  s.kind = "synthetic";
  s.preset = "tiny";
  return load_model(s);
}

std::vector<int32_t> some_tokens(int64_t n) {
  std::vector<int32_t> t;
  for (int64_t i = 0; i < n; ++i) t.push_back(int32_t((i * 7919 + 13) % 32000));
  return t;
}

TEST_CASE("q8_0 costs little quality and q4_0 more, against the same model in f32") {
  ThreadPool pool(2);
  const ModelWeights f32 = tiny();
  ModelWeights q8 = tiny(), q4 = tiny();
  q8.apply_weight_dtype("q8_0");
  q4.apply_weight_dtype("q4_0");
  const std::vector<int32_t> tokens = some_tokens(128);
  const QualityOptions o{.context = 64, .chunks = 0};
  const QualitySummary same = evaluate_quality(f32, f32, tokens, o, pool);
  const QualitySummary s8 = evaluate_quality(f32, q8, tokens, o, pool);
  const QualitySummary s4 = evaluate_quality(f32, q4, tokens, o, pool);
  REQUIRE(same.positions == 2 * 31);  // per chunk of 64: positions 32 .. 62 predict
  CHECK(same.kl_divergence.max < 1e-9);
  CHECK(same.top1_agreement == 1.0);
  // The bounds: measured 2026-12-02 (tiny preset, random weights), with room.
  CHECK(s8.kl_divergence.mean > 0.0);
  CHECK(s8.kl_divergence.mean < 0.01);
  CHECK(s8.top1_agreement >= 0.9);
  CHECK(s4.kl_divergence.mean > s8.kl_divergence.mean);
  CHECK(s8.baseline_perplexity == Approx(same.perplexity));
}

TEST_CASE("an int8 KV cache costs little quality and fp8 e4m3 more, against an fp32 KV cache") {
  ThreadPool pool(2);
  const ModelWeights f32 = tiny();
  const std::vector<int32_t> tokens = some_tokens(128);
  QualityOptions o{.context = 64, .chunks = 0};
  o.kv_dtype = DType::kI8;
  const QualitySummary int8 = evaluate_quality(f32, f32, tokens, o, pool);
  o.kv_dtype = DType::kF8E4M3;
  const QualitySummary fp8 = evaluate_quality(f32, f32, tokens, o, pool);
  o.kv_dtype = DType::kBF16;
  const QualitySummary bf16 = evaluate_quality(f32, f32, tokens, o, pool);
  INFO("KL mean: int8 " << int8.kl_divergence.mean << ", fp8 " << fp8.kl_divergence.mean
                        << ", bf16 " << bf16.kl_divergence.mean);
  CHECK(int8.kl_divergence.mean > 0.0);
  CHECK(int8.kl_divergence.mean < 0.01);
  CHECK(fp8.kl_divergence.mean > int8.kl_divergence.mean);
  CHECK(int8.top1_agreement >= 0.9);
}

TEST_CASE("eval refuses a short text, a bad context and another vocabulary, by name") {
  ThreadPool pool(1);
  const ModelWeights m = tiny();
  CHECK_THROWS_WITH(evaluate_quality(m, m, some_tokens(10), {.context = 64}, pool),
                    Catch::Contains("gives 10 tokens, fewer than one chunk (--ctx 64)"));
  CHECK_THROWS_WITH(evaluate_quality(m, m, some_tokens(10), {.context = 2}, pool),
                    Catch::Contains("--ctx 2 is out of range (4 .. 1024"));
  std::vector<int32_t> bad = some_tokens(64);
  bad[3] = 40000;
  CHECK_THROWS_WITH(evaluate_quality(m, m, bad, {.context = 64}, pool),
                    Catch::Contains("token id 40000 is outside the vocabulary"));
  ModelWeights other = tiny();
  other.config.vocab_size = 100;  // refused before any forward pass
  CHECK_THROWS_WITH(evaluate_quality(m, other, some_tokens(64), {.context = 64}, pool),
                    Catch::Contains("the baseline's vocabulary (32000 tokens) differs from the "
                                    "model's (100)"));
}

}  // namespace
}  // namespace infergate
