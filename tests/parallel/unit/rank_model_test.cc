// Which rank model a multi-rank engine gets (engine/parallel/rank_model.h): the CPU's always; a
// backend this program has no multi-rank model for is refused on rank 0, by name, before any
// worker is told to set up.
#include "engine/parallel/rank_model.h"

#include <catch2/catch.hpp>

#include "engine/model/synthetic_model.h"

namespace infergate {
namespace {

TEST_CASE("rank model: the CPU's is always there, a missing backend is named") {
  const ModelWeights w = make_synthetic_model(preset_config("tiny"), 0);
  EngineConfig c;
  c.tensor_parallel = 2;
  CHECK_NOTHROW(check_rank_model(w, c));
  c.backend = Backend::kCuda;  // this test program registers no GPU rank model
  CHECK_THROWS_WITH(check_rank_model(w, c),
                    Catch::Contains("backend cuda with more than one rank needs a build with "
                                    "CUDA, NCCL and MPI"));
  bool checked = false;
  register_rank_model(
      Backend::kCuda,
      [](RankWeights&, const ParallelLayout&, const RankSetup&, MpiCommunicator&,
         MpiCommunicator&) -> std::unique_ptr<RankModel> { return nullptr; },
      [&](const ModelWeights&, const EngineConfig&) { checked = true; });
  CHECK_NOTHROW(check_rank_model(w, c));
  CHECK(checked);  // the backend's own check runs on rank 0
  register_rank_model(Backend::kCuda, nullptr);
  CHECK_THROWS(check_rank_model(w, c));
}

}  // namespace
}  // namespace infergate
