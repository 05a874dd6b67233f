// The in-process engine as a benchmark target: a thin adapter over EngineService, the same loop
// `infergate serve` runs, so in-process and HTTP runs differ only by the transport. A request
// arriving mid-step waits for the step to end, exactly as in the server, and that wait counts in
// its latency.
#pragma once

#include <memory>
#include <vector>

#include "bench/targets/target.h"
#include "bench/workload/workload.h"
#include "engine/service/engine_service.h"

namespace infergate {

class EngineTarget final : public Target {
 public:
  // Requests are sampled as `sampling` says (greedy by default), each with its own seed.
  explicit EngineTarget(std::unique_ptr<Engine> engine, const SamplingSpec& sampling = {});
  ~EngineTarget() override;

  void start(TargetEventSink sink) override;
  void submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) override;
  void stop() override;
  TargetStats stats() const override;
  int32_t vocab_size() const override;

 private:
  EngineService service_;
  TargetEventSink sink_;  // set by start(), before the first submit
  SamplingSpec sampling_;
};

// The engine's statistics in the results file's units.
EngineStatsRecord engine_stats_record(const EngineStats& stats);

// What an engine is asked for request `index`: max_tokens ignoring EOS (benchmarks need fixed
// output lengths), sampled as the workload says with the request's own seed.
SamplingParams benchmark_sampling_params(const SamplingSpec& sampling, uint64_t index,
                                         int max_tokens);

}  // namespace infergate
