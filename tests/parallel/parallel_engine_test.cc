// Greedy tokens of a model split over ranks (tensor, pipeline, expert parallelism and their
// combinations) are the single-rank engine's, in fp32 (docs/distributed.md). Each case needs
// the job's world size; CTest runs the binary on 2 and on 4 ranks with tag filters.
#include <catch2/catch.hpp>

#include "engine/core/engine.h"
#include "engine/model/model_loader.h"
#include "engine/model/synthetic_model.h"
#include "engine/parallel/parallel_job.h"

namespace infergate {
namespace {

std::vector<std::vector<int32_t>> prompts() {
  return {{1, 17, 300, 42, 7, 99, 1000, 5}, {1, 2, 3}, {1, 500, 12, 800, 64, 33, 2, 90, 71, 4, 8}};
}

std::vector<GenerateResult> generate(const std::string& preset, EngineConfig config) {
  config.num_threads = 1;
  config.max_num_batched_tokens = 16;  // several steps of chunked prefill, then decodes
  SamplingParams greedy;
  greedy.max_tokens = 20;
  greedy.ignore_eos = true;
  Engine engine(config, load_model({"synthetic", preset, 0, ""}));
  return engine.generate(prompts(), greedy);
}

void check_same_tokens(const std::string& preset, const EngineConfig& parallel) {
  REQUIRE(parallel_job().world_size() == parallel.world_size());
  const std::vector<GenerateResult> expected = generate(preset, EngineConfig{});
  const std::vector<GenerateResult> got = generate(preset, parallel);
  REQUIRE(got.size() == expected.size());
  for (size_t i = 0; i < got.size(); ++i) {
    INFO("prompt " << i);
    CHECK(got[i].token_ids == expected[i].token_ids);
  }
}

EngineConfig with(int tp, int pp, int ep, int micro_batches = 0) {
  EngineConfig c;
  c.tensor_parallel = tp;
  c.pipeline_parallel = pp;
  c.expert_parallel = ep;
  c.pipeline_micro_batches = micro_batches;
  return c;
}

TEST_CASE("parallel engine: tensor parallel 2 gives the single-rank greedy tokens", "[np2]") {
  check_same_tokens("tiny", with(2, 1, 1));
}

TEST_CASE("parallel engine: pipeline parallel 2 gives the single-rank greedy tokens", "[np2]") {
  check_same_tokens("tiny", with(1, 2, 1));
  check_same_tokens("tiny", with(1, 2, 1, /*micro_batches=*/3));
  EngineConfig uneven = with(1, 2, 1);
  uneven.pipeline_stage_layers = {5, 1};
  check_same_tokens("tiny", uneven);
}

TEST_CASE("parallel engine: expert parallel 2 (moe-tiny) gives the single-rank tokens", "[np2]") {
  check_same_tokens("moe-tiny", with(1, 1, 2));
}

TEST_CASE("parallel engine: tensor parallel 2 splits moe-tiny's experts by width", "[np2]") {
  check_same_tokens("moe-tiny", with(2, 1, 1));
}

TEST_CASE("parallel engine: the statistics show the layout, collectives and expert load", "[np2]") {
  SamplingParams greedy;
  greedy.max_tokens = 4;
  EngineConfig c = with(1, 1, 2);
  c.num_threads = 1;
  Engine engine(c, load_model({"synthetic", "moe-tiny", 0, ""}));
  engine.generate(prompts(), greedy);
  const std::optional<ParallelRecord> s = engine.stats().parallel;
  REQUIRE(s);
  REQUIRE(s->ranks);
  CHECK(s->ranks->world_size == 2);
  CHECK(s->expert_parallel == 2);
  CHECK(s->ranks->group.at("all_to_all_v").calls > 0);
  REQUIRE(s->experts);
  const std::vector<int64_t> load = s->experts->tokens_per_rank;
  REQUIRE(load.size() == 2);
  CHECK(load[0] + load[1] > 0);
}

TEST_CASE("parallel engine: a config for another world size is refused by name", "[np2]") {
  CHECK_THROWS_WITH(Engine(with(2, 2, 1), load_model({})), Catch::Contains("mpirun -np 4"));
  // Weights built in code cannot be loaded again by the other ranks.
  CHECK_THROWS_WITH(Engine(with(2, 1, 1), make_synthetic_model(preset_config("tiny"), 0)),
                    Catch::Contains("load_model"));
}

TEST_CASE("parallel engine: TP 2 x PP 2 gives the single-rank greedy tokens", "[np4]") {
  check_same_tokens("tiny", with(2, 2, 1));
}

// Speculation across ranks: the draft tokens travel in the step's batch like any tokens, each
// with its logit row, and the greedy tokens stay the single-rank engine's (docs/speculative.md).
EngineConfig speculating(EngineConfig c, SpeculativeMethod method) {
  c.speculative_method = method;
  c.speculative_num_tokens = 4;
  c.speculative_draft_layers = method == SpeculativeMethod::kSelf ? 2 : 0;
  return c;
}

TEST_CASE("parallel engine: speculation over TP 2 and PP 2 gives the single-rank tokens", "[np2]") {
  for (const SpeculativeMethod m : {SpeculativeMethod::kNgram, SpeculativeMethod::kSelf}) {
    INFO("method " << speculative_method_name(m));
    check_same_tokens("tiny", speculating(with(2, 1, 1), m));
    check_same_tokens("tiny", speculating(with(1, 2, 1, /*micro_batches=*/2), m));
  }
  EngineConfig c = speculating(with(2, 1, 1), SpeculativeMethod::kNgram);
  c.num_threads = 1;
  Engine engine(c, load_model({"synthetic", "tiny", 0, ""}));
  SamplingParams greedy;
  greedy.max_tokens = 48;
  greedy.ignore_eos = true;
  engine.generate(prompts(), greedy);
  CHECK(engine.stats().spec_num_accepted_tokens > 0);  // the tiny model's answers loop
}

TEST_CASE("parallel engine: speculation over TP 2 x PP 2 gives the single-rank tokens", "[np4]") {
  check_same_tokens("tiny", speculating(with(2, 2, 1), SpeculativeMethod::kNgram));
  check_same_tokens("tiny", speculating(with(2, 2, 1), SpeculativeMethod::kSelf));
}

TEST_CASE("parallel engine: TP 2 x PP 2 x EP 2 on moe-tiny gives the single-rank tokens", "[np4]") {
  check_same_tokens("moe-tiny", with(2, 2, 2));
}

TEST_CASE("parallel engine: pipeline parallel 4 reports its bubble per stage", "[np4]") {
  EngineConfig c = with(1, 4, 1);
  c.num_threads = 1;
  Engine engine(c, load_model({}));
  SamplingParams greedy;
  greedy.max_tokens = 4;
  engine.generate(prompts(), greedy);
  const std::optional<ParallelRecord> s = engine.stats().parallel;
  REQUIRE(s);
  REQUIRE(s->pipeline);
  REQUIRE(s->pipeline->stages.size() == 4);
  const double bubble = s->pipeline->bubble_fraction;
  CHECK(bubble > 0.0);
  CHECK(bubble < 1.0);
}

}  // namespace
}  // namespace infergate
