#include "engine/parallel/rank_model.h"

#include <map>
#include <stdexcept>

#include "engine/parallel/cpu_rank_model.h"

namespace infergate {

namespace {

struct RankModelEntry {
  RankModelFactory make;
  RankModelCheck check;
};

std::map<Backend, RankModelEntry>& registry() {
  static std::map<Backend, RankModelEntry> entries = {
      {Backend::kCpu,
       {[](RankWeights& part, const ParallelLayout&, const RankSetup& setup, MpiCommunicator&,
           MpiCommunicator& group) { return std::make_unique<CpuRankModel>(part, setup, group); },
        {}}}};
  return entries;
}

const RankModelEntry& entry_for(Backend backend) {
  const auto it = registry().find(backend);
  if (it == registry().end()) {
    throw std::invalid_argument("engine config: backend " + backend_name(backend) +
                                " with more than one rank needs a build with CUDA, NCCL and MPI; "
                                "this one has no multi-rank " +
                                backend_name(backend) + " engine");
  }
  return it->second;
}

}  // namespace

void register_rank_model(Backend backend, RankModelFactory make, RankModelCheck check) {
  if (make) {
    registry()[backend] = {std::move(make), std::move(check)};
  } else {
    registry().erase(backend);
  }
}

void check_rank_model(const ModelWeights& weights, const EngineConfig& config) {
  const RankModelEntry& e = entry_for(config.backend);
  if (e.check) e.check(weights, config);
}

std::unique_ptr<RankModel> make_rank_model(RankWeights& part, const ParallelLayout& layout,
                                           const RankSetup& setup, MpiCommunicator& world,
                                           MpiCommunicator& group) {
  return entry_for(setup.config.backend).make(part, layout, setup, world, group);
}

}  // namespace infergate
