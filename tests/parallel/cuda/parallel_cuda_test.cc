// The multi-rank engine with backend "cuda" (docs/distributed.md): greedy tokens of the `tiny`
// preset in fp32 are the single-rank CPU engine's, with the stages passing hidden states over
// MPI (one GPU is enough: two stages may share it), tensor-parallel groups reducing over NCCL and
// expert-parallel ones exchanging rows over NCCL (one GPU per rank). CTest runs the pipeline
// cases on 2 ranks and the group ones ("[tp]") with `--gpus 2`.
#include <catch2/catch.hpp>

#include "engine/core/engine.h"
#include "engine/model/model_loader.h"
#include "engine/parallel/parallel_job.h"

namespace infergate {
namespace {

std::vector<std::vector<int32_t>> prompts() {
  return {{1, 17, 300, 42, 7, 99, 1000, 5}, {1, 2, 3}, {1, 500, 12, 800, 64, 33, 2, 90, 71, 4, 8}};
}

std::vector<GenerateResult> generate(const std::string& preset, EngineConfig config,
                                     EngineStats* stats = nullptr) {
  config.num_threads = 2;
  config.max_num_batched_tokens = 16;  // several steps of chunked prefill, then decodes
  SamplingParams greedy;
  greedy.max_tokens = 16;
  greedy.ignore_eos = true;
  Engine engine(config, load_model({"synthetic", preset, 0, ""}));
  std::vector<GenerateResult> out = engine.generate(prompts(), greedy);
  if (stats) *stats = engine.stats();
  return out;
}

EngineConfig on_cuda(int tp, int pp, int ep = 1, int micro_batches = 0) {
  EngineConfig c;
  c.backend = Backend::kCuda;
  c.tensor_parallel = tp;
  c.pipeline_parallel = pp;
  c.expert_parallel = ep;
  c.pipeline_micro_batches = micro_batches;
  return c;
}

void check_same_tokens(const std::string& preset, const EngineConfig& parallel) {
  REQUIRE(parallel_job().world_size() == parallel.world_size());
  const std::vector<GenerateResult> expected = generate(preset, EngineConfig{});
  EngineStats stats;
  const std::vector<GenerateResult> got = generate(preset, parallel, &stats);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("prompt " << i);
    CHECK(got[i].token_ids == expected[i].token_ids);
  }
  CHECK(stats.memory.weights_bytes > 0);  // rank 0's part, on its GPU
  CHECK(stats.memory.kv_cache_bytes > 0);
  REQUIRE(stats.parallel.has_value());
  CHECK(stats.parallel->steps > 0);
}

TEST_CASE("parallel cuda: pipeline parallel 2 gives the CPU engine's greedy tokens", "[pp]") {
  check_same_tokens("tiny", on_cuda(1, 2));
  check_same_tokens("tiny", on_cuda(1, 2, 1, /*micro_batches=*/3));
  check_same_tokens("moe-tiny", on_cuda(1, 2));
}

TEST_CASE("parallel cuda: tensor parallel 2 over NCCL gives the CPU engine's greedy tokens",
          "[tp]") {
  check_same_tokens("tiny", on_cuda(2, 1));
  check_same_tokens("moe-tiny", on_cuda(2, 1));  // experts split by width
}

TEST_CASE("parallel cuda: expert parallel 2 gives the CPU engine's tokens and counts its rows",
          "[tp]") {
  check_same_tokens("moe-tiny", on_cuda(1, 1, 2));
  check_same_tokens("moe-tiny", on_cuda(2, 1, 2));  // attention split by heads, experts whole
  EngineStats stats;
  generate("moe-tiny", on_cuda(1, 1, 2), &stats);
  REQUIRE(stats.parallel->experts.has_value());
  const std::vector<int64_t>& rows = stats.parallel->experts->tokens_per_rank;
  REQUIRE(rows.size() == 2);
  CHECK(rows[0] + rows[1] > 0);  // every routed (token, expert) row ran on some rank
}

}  // namespace
}  // namespace infergate
