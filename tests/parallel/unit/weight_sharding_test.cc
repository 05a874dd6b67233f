// Each rank's part of a model has the shapes its layout asks for, and impossible splits are
// refused by the dimension's name.
#include <catch2/catch.hpp>

#include "engine/model/model_loader.h"
#include "engine/model/synthetic_model.h"
#include "engine/parallel/weight_sharding.h"

namespace infergate {
namespace {

ParallelLayout layout(const EngineConfig& c, int rank) {
  return make_parallel_layout(c, c.world_size(), rank);
}

EngineConfig tp(int n) {
  EngineConfig c;
  c.tensor_parallel = n;
  return c;
}

TEST_CASE("weight sharding: tensor parallel splits heads, widths and the vocabulary") {
  const ModelWeights full = load_model({"synthetic", "small", 0, ""});  // 12 heads, 4 KV heads
  const ModelConfig& c = full.config;
  const RankWeights part = shard_weights(full, layout(tp(2), 1));
  const ModelConfig& p = part.weights.config;
  CHECK(p.num_heads == c.num_heads / 2);
  CHECK(p.num_kv_heads == c.num_kv_heads / 2);
  CHECK(p.intermediate_size == c.intermediate_size / 2);
  CHECK(part.weights.layers[0].wq.dim(0) == p.num_heads * c.head_dim);
  CHECK(part.weights.layers[0].wo.dim(1) == p.num_heads * c.head_dim);
  CHECK(part.weights.layers[0].ffn.down.dim(1) == p.intermediate_size);
  CHECK(part.weights.embed.dim(0) == (c.vocab_size + 1) / 2);
  CHECK(part.shard.vocab_start == (c.vocab_size + 1) / 2);
  CHECK(part.shard.full_vocab == c.vocab_size);
}

TEST_CASE("weight sharding: with fewer KV heads than ranks, each keeps the one it reads") {
  ModelConfig c = preset_config("tiny");
  c.num_heads = 8, c.num_kv_heads = 2, c.head_dim = 36;
  const ModelWeights full = make_synthetic_model(c, 0);
  const RankWeights part = shard_weights(full, layout(tp(4), 3));
  CHECK(part.weights.config.num_heads == 2);
  CHECK(part.weights.config.num_kv_heads == 1);
  // Query heads 6 and 7 of 8 read KV head 6 / 4 = 1: rows [head_dim, 2 * head_dim) of wk.
  const int64_t hd = c.head_dim, hidden = c.hidden_size;
  const float* want = full.layers[0].wk.data<float>() + 1 * hd * hidden;
  CHECK(std::equal(want, want + hd * hidden, part.weights.layers[0].wk.data<float>()));
}

TEST_CASE("weight sharding: pipeline stages split the layers evenly, experts go whole") {
  const ModelWeights full = load_model({"synthetic", "moe-tiny", 0, ""});  // 4 layers, 8 experts
  EngineConfig c;
  c.pipeline_parallel = 3;
  CHECK(shard_weights(full, layout(c, 0)).weights.config.num_layers == 2);
  CHECK(shard_weights(full, layout(c, 2)).weights.config.num_layers == 1);
  EngineConfig ep;
  ep.expert_parallel = 2;
  const RankWeights part = shard_weights(full, layout(ep, 1));
  CHECK(part.weights.layers[0].experts.size() == 4);
  CHECK(part.shard.local_experts == std::vector<int>{4, 5, 6, 7});
  CHECK(part.weights.layers[0].router.dim(0) == 8);  // every rank routes over all experts
}

TEST_CASE("weight sharding: explicit stage layers, and a split that does not add up") {
  const ModelWeights tiny = load_model({});  // 6 layers
  EngineConfig c;
  c.pipeline_parallel = 2;
  c.pipeline_stage_layers = {5, 1};
  CHECK(shard_weights(tiny, layout(c, 0)).weights.config.num_layers == 5);
  CHECK(shard_weights(tiny, layout(c, 1)).weights.config.num_layers == 1);
  c.pipeline_stage_layers = {4, 1};
  CHECK_THROWS_WITH(shard_weights(tiny, layout(c, 0)), Catch::Contains("add up to 5 layers"));
  c.pipeline_stage_layers = {6};
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("pipeline_stage_layers"));
}

TEST_CASE("weight sharding: a split that does not divide is refused by name") {
  const ModelWeights tiny = load_model({});  // 6 heads
  CHECK_THROWS_WITH(shard_weights(tiny, layout(tp(4), 0)), Catch::Contains("num_heads (6)"));
  EngineConfig ep;
  ep.expert_parallel = 2;
  CHECK_THROWS_WITH(shard_weights(tiny, layout(ep, 0)), Catch::Contains("mixture-of-experts"));
  EngineConfig pp;
  pp.pipeline_parallel = 64;
  CHECK_THROWS_WITH(shard_weights(tiny, layout(pp, 0)), Catch::Contains("exceeds"));
  CHECK_THROWS_WITH(make_parallel_layout(tp(2), 3, 0), Catch::Contains("mpirun -np 2"));
}

}  // namespace
}  // namespace infergate
