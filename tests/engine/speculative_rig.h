// What the speculative decoding tests share: prompts that repeat themselves (and some that do
// not), a run of an engine over them that checks the KV invariants after every step, and the
// two-sample chi-square that compares sampled tokens with and without speculation.
#pragma once

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "chi_square.h"
#include "engine/core/engine.h"
#include "progress_watchdog.h"
#include "test_models.h"

namespace infergate::testing {

using Tokens = std::vector<int32_t>;

// Half the prompts repeat a phrase (the output of a random model soon loops too), half do not;
// every third starts with the same 17 tokens (prefix-cache hits).
inline std::vector<Tokens> spec_prompts(int count) {
  std::vector<Tokens> prompts;
  for (int i = 0; i < count; ++i) {
    Tokens p = {1};
    if (i % 3 == 0) {
      for (int32_t t = 200; t < 216; ++t) p.push_back(t);
    }
    const Tokens phrase = {int32_t(10 + i), 40, 41, int32_t(50 + i % 3), 42};
    for (int r = 0; r < (i % 2 == 0 ? 4 : 1); ++r) p.insert(p.end(), phrase.begin(), phrase.end());
    for (int j = 0; j < 3 + i % 5; ++j) p.push_back(int32_t((i * 97 + j * 31) % 500 + 3));
    prompts.push_back(p);
  }
  return prompts;
}

// The target of every speculative test: small_test_config(), seed 21.
inline const ModelWeights& spec_target() {
  static const ModelWeights weights = make_synthetic_model(small_test_config(), 21);
  return weights;
}

struct SpecRun {
  std::vector<Tokens> tokens;  // each prompt's output, in prompt order
  EngineStats stats;
};

// Runs the prompts (request ids "r0", "r1", ...) to completion on spec_target(), each with
// `params` (seeded with its index when seed_each), checking the KV invariants after every step.
inline SpecRun run_prompts(EngineConfig config, const std::vector<Tokens>& prompts,
                           const SamplingParams& params, bool seed_each = false) {
  config.num_threads = 2;
  Engine engine(config, spec_target());
  for (size_t i = 0; i < prompts.size(); ++i) {
    SamplingParams p = params;
    if (seed_each) p.seed = uint64_t(i);
    engine.add_request("r" + std::to_string(i), prompts[i], p);
  }
  std::vector<Tokens> tokens(prompts.size());
  for (int step = 0; engine.has_unfinished(); ++step) {
    REQUIRE(step < 20000);
    for (const RequestOutput& o : watched_step(engine)) {
      Tokens& t = tokens[std::stoul(o.id.substr(1))];
      t.insert(t.end(), o.token_ids.begin(), o.token_ids.end());
    }
    engine.check_invariants();
  }
  REQUIRE(engine.stats().kv_usage == 0.0);
  return {tokens, engine.stats()};
}

// Two-sample chi-square of the tokens at output position `pos` of two sets of runs: true when
// they may come from one distribution at alpha 0.001 (cells with fewer than 5 expected skipped).
inline void check_same_distribution(const std::vector<Tokens>& a, const std::vector<Tokens>& b,
                                    size_t pos) {
  std::map<int32_t, std::pair<double, double>> counts;  // token -> (a, b)
  for (const Tokens& t : a) ++counts[t.at(pos)].first;
  for (const Tokens& t : b) ++counts[t.at(pos)].second;
  const double na = double(a.size()), nb = double(b.size());
  double stat = 0;
  int df = -1;
  for (const auto& [token, n] : counts) {
    const double total = n.first + n.second;
    const double ea = total * na / (na + nb), eb = total * nb / (na + nb);
    if (ea < 5 || eb < 5) continue;  // too rare for the approximation
    stat += (n.first - ea) * (n.first - ea) / ea + (n.second - eb) * (n.second - eb) / eb;
    ++df;
  }
  INFO("position " << pos << ": chi-square " << stat << " with " << df << " df");
  REQUIRE(df >= 1);
  CHECK(stat < chi_square_critical(df, 0.001));
}

}  // namespace infergate::testing
