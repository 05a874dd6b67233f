// The request's logits processing (logit_bias, min_tokens, repetition/frequency/presence
// penalties) and logprobs: the processors against a plain reference written here, the engine's
// greedy tokens under them against the reference forward, speculation leaving them unchanged,
// and logprobs equal to the reference forward's log-softmax.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "common/random/xoshiro256.h"
#include "engine/forward/reference_forward.h"
#include "engine/request/logits_processors.h"
#include "engine/request/token_logprobs.h"
#include "speculative_rig.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

// vLLM's definitions, written the plain way: counts in a map, every rule on its own.
std::vector<float> reference_processing(std::vector<float> logits, const SamplingParams& p,
                                        const Tokens& tokens, int num_prompt, int32_t eos) {
  for (const auto& [id, bias] : p.logit_bias) logits[size_t(id)] += bias;
  const int outputs = int(tokens.size()) - num_prompt;
  if (outputs < p.min_tokens) {
    if (!p.ignore_eos) logits[size_t(eos)] = -std::numeric_limits<float>::infinity();
    for (int32_t id : p.stop_token_ids)
      logits[size_t(id)] = -std::numeric_limits<float>::infinity();
  }
  const std::set<int32_t> seen(tokens.begin(), tokens.end());
  for (int32_t id : seen) {
    float& x = logits[size_t(id)];
    if (p.repetition_penalty != 1.0f)
      x = x > 0 ? x / p.repetition_penalty : x * p.repetition_penalty;
  }
  std::map<int32_t, int> counts;
  for (size_t i = size_t(num_prompt); i < tokens.size(); ++i) ++counts[tokens[i]];
  for (const auto& [id, c] : counts) {
    if (p.frequency_penalty != 0.0f || p.presence_penalty != 0.0f) {
      logits[size_t(id)] -= float(c) * p.frequency_penalty + p.presence_penalty;
    }
  }
  return logits;
}

SamplingParams penalized(int max_tokens) {
  SamplingParams p = fixed_tokens(max_tokens);
  p.repetition_penalty = 1.3f;
  p.frequency_penalty = 0.4f;
  p.presence_penalty = 0.6f;
  p.logit_bias = {{7, 3.0f}, {40, -2.0f}, {300, 1.5f}};
  return p;
}

std::vector<float> random_row(int vocab, uint64_t seed, float scale) {
  Xoshiro256 rng(seed);
  std::vector<float> row(static_cast<size_t>(vocab));
  for (float& x : row) x = float((rng.uniform() * 2.0 - 1.0) * scale);
  return row;
}

int32_t argmax(const std::vector<float>& row) {
  return int32_t(std::max_element(row.begin(), row.end()) - row.begin());
}

}  // namespace

TEST_CASE("logits processors equal the plain reference, drafts counting as output",
          "[engine][sampling]") {
  const int vocab = 512;
  SamplingParams p = penalized(8);
  p.min_tokens = 6;
  p.ignore_eos = false;
  p.stop_token_ids = {11, 12};
  const Tokens prompt = {1, 7, 7, 9, 40, 300, 5};
  const Tokens output = {9, 9, 13, 7};
  const Tokens drafts = {13, 21};
  for (uint64_t seed = 0; seed < 20; ++seed) {
    const std::vector<float> row = random_row(vocab, seed, 4.0f);
    for (size_t pending = 0; pending <= drafts.size(); ++pending) {
      Tokens history = prompt;
      history.insert(history.end(), output.begin(), output.end());
      std::vector<float> got = row;
      apply_logits_processors(got, p,
                              {history, int(prompt.size()), std::span(drafts).first(pending)}, 2);
      history.insert(history.end(), drafts.begin(), drafts.begin() + ptrdiff_t(pending));
      REQUIRE(got == reference_processing(row, p, history, int(prompt.size()), 2));
      // min_tokens = 6: 4 outputs and 2 drafts reach it, and the stops come back.
      CHECK(std::isinf(got[2]) == (4 + pending < 6));
    }
  }
}

TEST_CASE(
    "greedy tokens under penalties and bias follow the reference forward, with and "
    "without speculation",
    "[engine][sampling]") {
  const std::vector<Tokens> prompts = spec_prompts(6);
  // Mild enough that the random model still repeats itself and drafts stand.
  SamplingParams params = penalized(24);
  params.repetition_penalty = 1.02f;
  params.frequency_penalty = 0.02f;
  params.presence_penalty = 0.01f;
  const SpecRun plain = run_prompts(EngineConfig{}, prompts, params);
  EngineConfig speculating;
  speculating.speculative_method = SpeculativeMethod::kNgram;
  speculating.speculative_num_tokens = 4;
  const SpecRun spec = run_prompts(speculating, prompts, params);
  CHECK(spec.stats.spec_num_accepted_tokens > 0);  // drafts were verified under penalties
  REQUIRE(spec.tokens == plain.tokens);

  int exact = 0, positions = 0;
  for (size_t i = 0; i < prompts.size(); ++i) {
    Tokens all = prompts[i];
    all.insert(all.end(), plain.tokens[i].begin(), plain.tokens[i].end());
    const std::vector<float> logits = reference_forward(spec_target(), all);
    const size_t vocab = size_t(spec_target().config.vocab_size);
    for (size_t k = 0; k < plain.tokens[i].size(); ++k) {
      const size_t pos = prompts[i].size() + k - 1;
      const std::vector<float> row(logits.begin() + ptrdiff_t(pos * vocab),
                                   logits.begin() + ptrdiff_t((pos + 1) * vocab));
      const Tokens before(all.begin(), all.begin() + ptrdiff_t(prompts[i].size() + k));
      const std::vector<float> processed =
          reference_processing(row, params, before, int(prompts[i].size()), 2);
      const int32_t chosen = plain.tokens[i][k];
      // The engine computes in float, the reference in double: a near tie may go either way.
      INFO("prompt " << i << " position " << k);
      CHECK(processed[size_t(chosen)] >= processed[size_t(argmax(processed))] - 1e-3f);
      exact += chosen == argmax(processed);
      ++positions;
    }
  }
  CHECK(exact >= positions - 2);
}

TEST_CASE("min_tokens holds EOS back, then EOS ends the answer, drafts counting as output",
          "[engine][sampling]") {
  SamplingParams p;
  p.max_tokens = 80;
  p.min_tokens = 60;
  p.logit_bias = {{2, 100.0f}};  // EOS (id 2) wins every step it is allowed
  const std::vector<Tokens> prompts = spec_prompts(8);
  const SpecRun plain = run_prompts(EngineConfig{}, prompts, p);
  for (const Tokens& t : plain.tokens) {
    REQUIRE(t.size() == 61u);
    CHECK(std::count(t.begin(), t.end(), 2) == 1);
    CHECK(t.back() == 2);
  }
  // Speculation verifies several rows in one step: each must count the drafts before it, or a
  // row past min_tokens would still mask EOS.
  EngineConfig speculating;
  speculating.speculative_method = SpeculativeMethod::kNgram;
  speculating.speculative_num_tokens = 6;
  const SpecRun spec = run_prompts(speculating, prompts, p);
  CHECK(spec.stats.spec_num_accepted_tokens > 0);
  CHECK(spec.tokens == plain.tokens);
}

TEST_CASE("logprobs are the reference forward's log-softmax, whatever the sampling",
          "[engine][sampling]") {
  const std::vector<Tokens> prompts = spec_prompts(3);
  SamplingParams p = penalized(6);  // penalties change the choice, not the logprobs
  p.temperature = 0.9f;
  p.seed = 5;
  p.logprobs = 4;
  Engine engine(EngineConfig{}, spec_target());
  for (size_t i = 0; i < prompts.size(); ++i)
    engine.add_request("r" + std::to_string(i), prompts[i], p);
  std::vector<Tokens> tokens(prompts.size());
  std::vector<std::vector<TokenLogprobs>> logprobs(prompts.size());
  while (engine.has_unfinished()) {
    for (const RequestOutput& o : engine.step()) {
      const size_t i = std::stoul(o.id.substr(1));
      REQUIRE(o.logprobs.size() == o.token_ids.size());
      tokens[i].insert(tokens[i].end(), o.token_ids.begin(), o.token_ids.end());
      logprobs[i].insert(logprobs[i].end(), o.logprobs.begin(), o.logprobs.end());
    }
  }
  const size_t vocab = size_t(spec_target().config.vocab_size);
  for (size_t i = 0; i < prompts.size(); ++i) {
    Tokens all = prompts[i];
    all.insert(all.end(), tokens[i].begin(), tokens[i].end());
    const std::vector<float> logits = reference_forward(spec_target(), all);
    for (size_t k = 0; k < tokens[i].size(); ++k) {
      const float* row = logits.data() + (prompts[i].size() + k - 1) * vocab;
      double max = row[0];
      for (size_t v = 0; v < vocab; ++v) max = std::max(max, double(row[v]));
      double sum = 0;
      for (size_t v = 0; v < vocab; ++v) sum += std::exp(double(row[v]) - max);
      const auto expected = [&](int32_t id) { return double(row[id]) - max - std::log(sum); };
      const TokenLogprobs& got = logprobs[i][k];
      CHECK(got.logprob == Approx(expected(tokens[i][k])).margin(2e-3));
      REQUIRE(got.top.size() == 4u);
      for (size_t r = 0; r < got.top.size(); ++r) {
        CHECK(got.top[r].logprob == Approx(expected(got.top[r].id)).margin(2e-3));
        if (r > 0) CHECK(got.top[r].logprob <= got.top[r - 1].logprob);
      }
      // Nothing outside the top 4 beats the 4th.
      for (int32_t v = 0; v < int32_t(vocab); ++v) {
        const bool listed = std::any_of(got.top.begin(), got.top.end(),
                                        [&](const TokenLogprob& t) { return t.id == v; });
        if (!listed) CHECK(expected(v) <= double(got.top.back().logprob) + 2e-3);
      }
    }
  }
}

TEST_CASE("a seed reproduces a penalized sampled answer", "[engine][sampling]") {
  SamplingParams p = penalized(12);
  p.temperature = 1.0f;
  const std::vector<Tokens> prompts = spec_prompts(4);
  const SpecRun a = run_prompts(EngineConfig{}, prompts, p, /*seed_each=*/true);
  const SpecRun b = run_prompts(EngineConfig{}, prompts, p, /*seed_each=*/true);
  CHECK(a.tokens == b.tokens);
  CHECK(a.tokens[0] != a.tokens[1]);
}

TEST_CASE("token_logprobs handles -inf, NaN and a row of nothing", "[engine][sampling]") {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> row = {0.0f, -inf, std::nanf(""), 0.0f};
  const TokenLogprobs t = token_logprobs(row.data(), 4, 0, 4);
  CHECK(t.logprob == Approx(std::log(0.5)));
  REQUIRE(t.top.size() == 4u);
  CHECK(t.top[0].id == 0);
  CHECK(t.top[1].id == 3);
  CHECK(std::isinf(t.top[2].logprob));
  const std::vector<float> none = {-inf, -inf};
  CHECK(std::isinf(token_logprobs(none.data(), 2, 1, 0).logprob));
}

TEST_CASE("sampling parameters out of range are refused naming the field", "[engine][sampling]") {
  const auto refused = [](auto change, const char* field) {
    SamplingParams p;
    change(p);
    CHECK_THROWS_WITH(p.validate(512), Catch::StartsWith(field));
  };
  refused([](SamplingParams& p) { p.frequency_penalty = 2.5f; }, "frequency_penalty");
  refused([](SamplingParams& p) { p.presence_penalty = -3.0f; }, "presence_penalty");
  refused([](SamplingParams& p) { p.repetition_penalty = 0.0f; }, "repetition_penalty");
  refused([](SamplingParams& p) { p.min_tokens = 17; }, "min_tokens");
  refused([](SamplingParams& p) { p.logprobs = 21; }, "logprobs");
  refused([](SamplingParams& p) { p.logit_bias = {{512, 1.0f}}; }, "logit_bias");
  refused([](SamplingParams& p) { p.logit_bias = {{3, 101.0f}}; }, "logit_bias");
  refused([](SamplingParams& p) { p.logit_bias.assign(1025, {1, 1.0f}); }, "logit_bias");
  refused([](SamplingParams& p) { p.stop_token_ids = {-1}; }, "stop_token_ids");
}
