// The prefill/decode handoff inside the engine: one engine computes a prompt, its KV blocks go
// to another, which adopts them and decodes; greedy tokens must be those of one engine doing
// both, for every KV dtype, block sizes 16 and 7, chunked prefill on and off.
#include <catch2/catch.hpp>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "engine/core/engine.h"
#include "progress_watchdog.h"
#include "test_models.h"

using namespace infergate;

namespace {

const ModelWeights& weights() {
  static const ModelWeights w = make_synthetic_model(testing::small_test_config(), 33);
  return w;
}

std::vector<int32_t> prompt_of(int length, int seed) {
  std::vector<int32_t> p;
  for (int i = 0; i < length; ++i) p.push_back(int32_t((seed * 97 + i * 31) % 500 + 3));
  return p;
}

std::vector<int32_t> greedy(Engine& engine, const std::vector<int32_t>& prompt, int max_tokens) {
  return testing::generate_watched(engine, {prompt}, testing::fixed_tokens(max_tokens))[0]
      .token_ids;
}

EngineConfig handoff_config(DType kv, int block_size, bool chunked) {
  EngineConfig c;
  c.num_threads = 1;
  c.kv_cache_dtype = kv;
  c.block_size = block_size;
  c.prefix_caching = true;
  c.chunked_prefill = chunked;
  c.max_num_batched_tokens = chunked ? 8 : 256;
  return c;
}

}  // namespace

TEST_CASE("a prompt's KV handed to another engine decodes as one engine would", "[engine]") {
  const DType kv = GENERATE(DType::kF32, DType::kF16, DType::kBF16, DType::kI8, DType::kF8E4M3);
  const int block_size = GENERATE(16, 7);
  const bool chunked = GENERATE(true, false);
  INFO(dtype_name(kv) << ", block size " << block_size << ", chunked " << chunked);
  const EngineConfig config = handoff_config(kv, block_size, chunked);
  const std::vector<int32_t> prompt = prompt_of(45, 1);

  Engine colocated(config, weights());
  const std::vector<int32_t> expected = greedy(colocated, prompt, 12);

  Engine prefill(config, weights());
  const std::vector<int32_t> first = greedy(prefill, prompt, 1);  // prompt and first token
  REQUIRE(first.front() == expected.front());
  const auto blocks = prefill.export_prefix_kv(prompt);
  REQUIRE(blocks.num_blocks == 45 / block_size);  // every full block of the prompt
  CHECK(prefill.cached_prefix_blocks(prompt) == blocks.num_blocks);
  // 2 x layers x kv_heads x (head_dim x dtype bytes + a 4-byte scale for int8 / fp8) per token
  // (docs/engine.md): the scales travel with the codes.
  const ModelConfig& m = weights().config;
  const size_t scale_bytes = is_scaled_kv(kv) ? 4 : 0;
  CHECK(blocks.block_nbytes == 2 * size_t(m.num_layers * m.num_kv_heads) *
                                   (size_t(m.head_dim) * dtype_bytes(kv, 1) + scale_bytes) *
                                   size_t(block_size));
  CHECK(blocks.bytes.size() == blocks.block_nbytes * size_t(blocks.num_blocks));

  Engine decode(config, weights());
  CHECK(decode.import_prefix_kv(prompt, blocks) == blocks.num_blocks);
  CHECK(greedy(decode, prompt, 12) == expected);
  // The imported blocks served the prompt (only the partial last block was computed here).
  CHECK(decode.stats().prefix_cache.hits == int64_t((44 / block_size) * block_size));
  decode.check_invariants();
  CHECK(decode.stats().kv_usage == 0.0);
}

TEST_CASE("a decode engine holding part of the prefix takes only the missing blocks", "[engine]") {
  const EngineConfig config = handoff_config(DType::kF32, 7, true);
  const std::vector<int32_t> prompt = prompt_of(45, 2);
  Engine prefill(config, weights());
  greedy(prefill, prompt, 1);
  REQUIRE(prefill.export_prefix_kv(prompt).num_blocks == 6);

  Engine colocated(config, weights());
  const std::vector<int32_t> expected = greedy(colocated, prompt, 10);
  Engine decode(config, weights());
  // Another request shared the first 21 tokens: 3 blocks are cached here already.
  std::vector<int32_t> earlier(prompt.begin(), prompt.begin() + 21);
  earlier.push_back(7);
  greedy(decode, earlier, 2);
  const int cached = decode.cached_prefix_blocks(prompt);
  REQUIRE(cached == 3);
  const KvBlocks missing = prefill.export_prefix_kv(prompt, cached);
  CHECK(missing.first_block == 3);
  CHECK(missing.num_blocks == 3);
  CHECK(decode.import_prefix_kv(prompt, missing) == 3);
  CHECK(greedy(decode, prompt, 10) == expected);
}

TEST_CASE("imported KV is what the decode engine computes with", "[engine]") {
  const EngineConfig config = handoff_config(DType::kF32, 16, true);
  const std::vector<int32_t> prompt = prompt_of(40, 3);
  Engine colocated(config, weights());
  const std::vector<int32_t> expected = greedy(colocated, prompt, 8);
  Engine prefill(config, weights());
  greedy(prefill, prompt, 1);
  auto blocks = prefill.export_prefix_kv(prompt);
  REQUIRE(blocks.num_blocks == 2);
  std::fill(blocks.bytes.begin(), blocks.bytes.end(), std::byte{0});  // zeroed K and V
  Engine decode(config, weights());
  REQUIRE(decode.import_prefix_kv(prompt, blocks) == 2);
  CHECK(greedy(decode, prompt, 8) != expected);  // attention over zeros: another answer
}

TEST_CASE("the KV handoff refuses blocks of another shape and needs a prefix cache", "[engine]") {
  const std::vector<int32_t> prompt = prompt_of(40, 4);
  Engine prefill(handoff_config(DType::kF32, 16, true), weights());
  greedy(prefill, prompt, 1);
  const auto blocks = prefill.export_prefix_kv(prompt);
  Engine bf16(handoff_config(DType::kBF16, 16, true), weights());
  CHECK_THROWS_WITH(bf16.import_prefix_kv(prompt, blocks),
                    Catch::Contains("KV blocks of") && Catch::Contains("another model"));
  EngineConfig off = handoff_config(DType::kF32, 16, true);
  off.prefix_caching = false;
  Engine uncached(off, weights());
  CHECK(uncached.import_prefix_kv(prompt, blocks) == 0);
  greedy(uncached, prompt, 1);
  CHECK(uncached.export_prefix_kv(prompt).num_blocks == 0);
}

TEST_CASE("an import stops at a block the decode engine was expected to hold but lost",
          "[engine]") {
  const EngineConfig config = handoff_config(DType::kF32, 7, true);
  const std::vector<int32_t> prompt = prompt_of(45, 5);
  Engine prefill(config, weights());
  greedy(prefill, prompt, 1);
  Engine colocated(config, weights());
  const std::vector<int32_t> expected = greedy(colocated, prompt, 6);
  // Sent from block 3 on, as if blocks 0-2 were cached here; they are not: nothing is adopted
  // (a chain cannot skip a block) and the request computes the whole prompt itself.
  Engine decode(config, weights());
  CHECK(decode.import_prefix_kv(prompt, prefill.export_prefix_kv(prompt, 3)) == 0);
  CHECK(decode.cached_prefix_blocks(prompt) == 0);
  decode.check_invariants();
  CHECK(greedy(decode, prompt, 6) == expected);
}
