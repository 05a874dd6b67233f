// A simulated cluster (simulated_cluster.h) as the load driver's Target: requests go to its
// workers, and what a virtual-time advance produced comes back as target events
// (virtual_load_clock.h advances it). Events are delivered on the driver's own thread.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "bench/targets/target.h"
#include "bench/workload/workload.h"
#include "sim/cluster/simulated_cluster.h"

namespace infergate {

class SimulatedTarget final : public Target {
 public:
  SimulatedTarget(SimulatedCluster& cluster, const SamplingSpec& sampling);

  void start(TargetEventSink sink) override { sink_ = std::move(sink); }
  // A request the workers refuse (RequestError) ends at once with its error.
  void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) override;
  // Every unfinished request ends aborted.
  void stop() override;
  TargetStats stats() const override;
  int32_t vocab_size() const override;

  // Hands the workers' outputs of one advance to the driver as events.
  void deliver(std::vector<RequestOutput> outputs);

 private:
  SimulatedCluster& cluster_;
  SamplingSpec sampling_;
  TargetEventSink sink_;
  // The prompts of unfinished requests: the workers hold them by reference, and a session's
  // prompt is the driver's copy of one turn.
  std::unordered_map<uint64_t, std::vector<int32_t>> prompts_;
};

}  // namespace infergate
