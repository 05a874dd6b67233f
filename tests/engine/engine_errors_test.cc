// Bad requests get a clear error and the engine keeps serving the others.
#include <catch2/catch.hpp>

#include "engine/core/engine.h"
#include "progress_watchdog.h"
#include "test_models.h"

using namespace infergate;

namespace {

std::unique_ptr<Engine> test_engine() {
  EngineConfig c;
  c.num_threads = 2;
  return std::make_unique<Engine>(c, make_synthetic_model(testing::small_test_config(), 1));
}

}  // namespace

TEST_CASE("bad requests are refused with a clear error while others are served", "[engine]") {
  auto owned = test_engine();
  Engine& engine = *owned;
  SamplingParams p = testing::fixed_tokens(4);
  engine.add_request("good", {1, 2, 3}, p);

  REQUIRE_THROWS_WITH(engine.add_request("empty", {}, p), Catch::Contains("empty prompt"));
  REQUIRE_THROWS_WITH(engine.add_request("long", std::vector<int32_t>(256, 5), p),
                      Catch::Contains("max_model_len is 256"));
  REQUIRE_THROWS_WITH(engine.add_request("vocab", {1, 512}, p),
                      Catch::Contains("token id 512 at prompt position 1"));
  REQUIRE_THROWS_WITH(engine.add_request("neg", {-1}, p), Catch::Contains("token id -1"));
  SamplingParams zero = p;
  zero.max_tokens = 0;
  REQUIRE_THROWS_WITH(engine.add_request("zero", {1}, zero), Catch::Contains("max_tokens"));
  zero.max_tokens = -3;
  REQUIRE_THROWS_WITH(engine.add_request("negative", {1}, zero), Catch::Contains("max_tokens"));
  REQUIRE_THROWS_WITH(engine.add_request("good", {1}, p), Catch::Contains("duplicate"));

  const auto results = testing::run_watched(engine);
  REQUIRE(results.size() == 1u);
  REQUIRE(results.at("good").token_ids.size() == 4u);
  REQUIRE(results.at("good").finish_reason == FinishReason::kLength);
}

TEST_CASE("abort frees the request's blocks and reports it once", "[engine]") {
  auto owned = test_engine();
  Engine& engine = *owned;
  SamplingParams p = testing::fixed_tokens(50);
  engine.add_request("a", {1, 2, 3}, p);
  engine.add_request("b", {4, 5, 6}, p);
  testing::watched_step(engine);
  REQUIRE(engine.abort("a"));
  REQUIRE_FALSE(engine.abort("a"));
  REQUIRE_FALSE(engine.abort("nope"));
  const auto outs = testing::watched_step(engine);
  const auto it = std::find_if(outs.begin(), outs.end(), [](auto& o) { return o.id == "a"; });
  REQUIRE(it != outs.end());
  REQUIRE(it->finish_reason == FinishReason::kAbort);
  testing::run_watched(engine);
  engine.check_invariants();
  REQUIRE(engine.stats().kv_usage == 0.0);
}

TEST_CASE("stop tokens, eos and max_tokens end a request with the right reason", "[engine]") {
  auto owned = test_engine();
  Engine& engine = *owned;
  SamplingParams p = testing::fixed_tokens(8);
  const auto free_run = testing::generate_watched(engine, {{1, 2, 3}}, p)[0];
  REQUIRE(free_run.finish_reason == FinishReason::kLength);
  REQUIRE(free_run.token_ids.size() == 8u);
  SamplingParams stop = p;
  stop.stop_token_ids = {free_run.token_ids[2]};
  const auto stopped = testing::generate_watched(engine, {{1, 2, 3}}, stop)[0];
  REQUIRE(stopped.finish_reason == FinishReason::kStop);
  REQUIRE(stopped.token_ids.back() == free_run.token_ids[2]);
  REQUIRE(stopped.token_ids.size() <= 3u);
}

TEST_CASE("invalid engine configs name the field", "[engine]") {
  EngineConfig c;
  c.block_size = 0;
  REQUIRE_THROWS_WITH(c.validate(), Catch::Contains("block_size = 0"));
  c = EngineConfig();
  c.paged_kv = false;
  REQUIRE_THROWS_WITH(c.validate(), Catch::Contains("prefix_caching"));
  // A typed enum cannot hold a bad weight dtype; its name is refused where it is parsed.
  REQUIRE_THROWS_WITH(
      parse_weight_dtype("int3"),
      Catch::Contains(
          "weight_dtype = int3 (allowed: auto, f32, f16, bf16, q8_0, q4_0, q4_1, q4_k, w8a8, q5_0, "
          "q5_1, q2_k, q3_k, q5_k, q6_k, iq4_nl, iq4_xs, fp8)"));
}

TEST_CASE("an aborted request id can be reused before the next step", "[engine]") {
  auto owned = test_engine();
  Engine& engine = *owned;
  engine.add_request("a", {1, 2, 3}, testing::fixed_tokens(50));
  testing::watched_step(engine);
  REQUIRE(engine.abort("a"));
  engine.add_request("a", {4, 5, 6}, testing::fixed_tokens(5));
  // The next step reports the abort; it must not forget the new request of the same id.
  const auto outs = testing::watched_step(engine);
  REQUIRE(std::count_if(outs.begin(), outs.end(), [](auto& o) { return o.finished; }) == 1);
  const auto results = testing::run_watched(engine);
  REQUIRE(results.at("a").finish_reason == FinishReason::kLength);
  REQUIRE(results.at("a").token_ids.size() == 4u);  // the fifth came with `outs`
  engine.check_invariants();
}
