// What rank 0 tells the workers when an engine starts (engine/parallel/rank_setup.h): every field
// a worker needs survives the trip, the backend included, and a damaged message is refused.
#include "engine/parallel/rank_setup.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

TEST_CASE("rank setup: the source and the workers' settings round-trip") {
  RankSetup s;
  s.source = {"synthetic", "moe-tiny", 7, ""};
  s.config.backend = Backend::kCuda;
  s.config.cuda_gemm = CudaGemm::kInfergate;
  s.config.weight_dtype = WeightDtype::kBf16;
  s.config.kv_cache_dtype = DType::kF16;
  s.config.block_size = 32;
  s.config.num_threads = 3;
  s.config.tensor_parallel = 2;
  s.config.pipeline_parallel = 2;
  s.config.pipeline_micro_batches = 3;
  s.config.pipeline_stage_layers = {4, 2};
  s.config.comm_timeout_s = 12.5;
  s.num_kv_blocks = 99;
  const RankSetup got = decode_rank_setup(encode_rank_setup(s));
  CHECK(got.source.preset == "moe-tiny");
  CHECK(got.source.seed == 7);
  CHECK(got.config.backend == Backend::kCuda);
  CHECK(got.config.cuda_gemm == CudaGemm::kInfergate);
  CHECK(got.config.weight_dtype == WeightDtype::kBf16);
  CHECK(got.config.kv_cache_dtype == DType::kF16);
  CHECK(got.config.block_size == 32);
  CHECK(got.config.num_threads == 3);
  CHECK(got.config.world_size() == 4);
  CHECK(got.config.pipeline_micro_batches == 3);
  CHECK(got.config.pipeline_stage_layers == std::vector<int>{4, 2});
  CHECK(got.config.comm_timeout_s == 12.5);
  CHECK(got.num_kv_blocks == 99);
}

TEST_CASE("rank setup: a message without a field is refused, naming it") {
  std::string text = encode_rank_setup(RankSetup{});
  text.replace(text.find("\"backend\""), 9, "\"backand\"");
  CHECK_THROWS_WITH(
      decode_rank_setup(text),
      Catch::Contains("rank setup from rank 0 is not valid") && Catch::Contains("backend"));
}

}  // namespace
}  // namespace infergate
