// The KV pool's limits are checked when the engine is built: a pool that cannot hold one
// max_model_len sequence (a request could wait for it forever) or that is larger than the
// machine's memory is refused by name, and fit_max_model_len lowers max_model_len instead.
#include <catch2/catch.hpp>
#include <climits>

#include "engine/core/engine.h"
#include "engine/core/kv_pool_plan.h"
#include "progress_watchdog.h"
#include "test_models.h"

using namespace infergate;

namespace {

const ModelWeights& test_weights() {
  static const ModelWeights weights = make_synthetic_model(testing::small_test_config(), 3);
  return weights;
}

EngineConfig pool_of(int num_blocks) {
  EngineConfig c;
  c.num_threads = 2;
  c.block_size = 16;
  c.num_kv_blocks = num_blocks;
  return c;
}

// The message Engine's constructor refuses `config` with.
std::string refusal(const EngineConfig& config) {
  try {
    Engine engine(config, test_weights());
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  FAIL("the engine accepted the config");
  return "";
}

void check_names_both_fixes(const std::string& message) {
  CHECK_THAT(message, Catch::Contains("holds 16 tokens") && Catch::Contains("(256)") &&
                          Catch::Contains("--num-kv-blocks") &&
                          Catch::Contains("--max-model-len") &&
                          Catch::Contains("fit_max_model_len"));
}

}  // namespace

TEST_CASE("a KV pool smaller than one max_model_len sequence is refused naming both fixes",
          "[engine]") {
  // small_test_config: max_position_embeddings 256; one 16-token block holds 16.
  check_names_both_fixes(refusal(pool_of(1)));
  EngineConfig contiguous = pool_of(1);
  contiguous.paged_kv = false;
  contiguous.prefix_caching = false;
  check_names_both_fixes(refusal(contiguous));
  EngineConfig by_bytes = pool_of(0);
  by_bytes.kv_cache_bytes = 1;  // rounds up to a single block
  CHECK_THAT(refusal(by_bytes), Catch::Contains("kv_cache_bytes = 1 gives 1 blocks"));
  // The same pool serves once max_model_len is small enough.
  EngineConfig fits = pool_of(1);
  fits.max_model_len = 16;
  REQUIRE(Engine(fits, test_weights()).max_model_len() == 16);
}

TEST_CASE("fit_max_model_len lowers max_model_len to the pool and requests run to their end",
          "[engine]") {
  EngineConfig c = pool_of(2);
  c.fit_max_model_len = true;
  Engine engine(c, test_weights());
  REQUIRE(engine.max_model_len() == 32);
  REQUIRE_THROWS_WITH(
      engine.add_request("long", std::vector<int32_t>(32, 5), testing::fixed_tokens(4)),
      Catch::Contains("max_model_len is 32"));
  // Three requests that each grow to the whole pool take turns through preemption.
  for (const char* id : {"a", "b", "c"})
    engine.add_request(id, {1, 2, 3, 4, 5}, testing::fixed_tokens(100));
  const auto results = testing::run_watched(engine);
  for (const char* id : {"a", "b", "c"}) {
    CHECK(results.at(id).finish_reason == FinishReason::kLength);
    CHECK(results.at(id).token_ids.size() == 27u);  // 5 + 27 = max_model_len
  }
  CHECK(engine.stats().num_preemptions > 0);
  engine.check_invariants();
  CHECK(engine.stats().kv_usage == 0.0);
}

TEST_CASE("fit_max_model_len still refuses a pool too small for any request", "[engine]") {
  EngineConfig c = pool_of(1);
  c.block_size = 1;
  c.fit_max_model_len = true;
  CHECK_THAT(refusal(c), Catch::Contains("at least 2"));
}

TEST_CASE("a KV pool larger than the machine's memory is refused naming the bytes and the limit",
          "[engine]") {
  // INT_MAX blocks of this model: 2^31 x 16 tokens x 2 layers x 2 heads x 48 x 2 x 4 bytes.
  CHECK_THAT(refusal(pool_of(INT_MAX)), Catch::Contains("2147483647 blocks x 16 tokens") &&
                                            Catch::Contains("of physical memory") &&
                                            Catch::Contains("x 2 (K and V) x 4 bytes (f32)"));
  EngineConfig by_bytes = pool_of(0);
  by_bytes.kv_cache_bytes = INT64_MAX;
  CHECK_THAT(refusal(by_bytes),
             Catch::Contains("blocks (from kv_cache_bytes = 9223372036854775807)") &&
                 Catch::Contains("of physical memory"));
  // The limit is the caller's: 64 blocks of 24576 bytes are refused under a 1 MiB limit.
  const ModelConfig& m = test_weights().config;
  REQUIRE(kv_pool_bytes(m, 16, DType::kF32, 64) == 64.0 * 16 * 2 * 2 * 2 * 48 * 4);
  REQUIRE_THROWS_WITH(
      plan_kv_pool(pool_of(64), m, 1 << 20),
      Catch::Contains("needs 1572864 bytes") && Catch::Contains("has 1048576 bytes"));
  REQUIRE(plan_kv_pool(pool_of(64), m, int64_t(1) << 30).num_blocks == 64);
  REQUIRE(physical_memory_bytes() > 0);
}

TEST_CASE("num_threads above the documented maximum is refused by the config", "[engine]") {
  EngineConfig c = pool_of(64);
  c.num_threads = 100000;
  REQUIRE_THROWS_WITH(c.validate(),
                      Catch::Contains("num_threads = 100000") && Catch::Contains("0..1024"));
  CHECK_THAT(refusal(c), Catch::Contains("0..1024"));
}
