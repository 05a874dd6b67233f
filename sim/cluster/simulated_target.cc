#include "sim/cluster/simulated_target.h"

#include <string>

#include "bench/targets/engine_target.h"

namespace infergate {

SimulatedTarget::SimulatedTarget(SimulatedCluster& cluster, const SamplingSpec& sampling)
    : cluster_(cluster), sampling_(sampling) {}

void SimulatedTarget::submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) {
  const std::vector<int32_t>& held = prompts_[index] = prompt;
  try {
    cluster_.submit(index, held, benchmark_sampling_params(sampling_, index, max_tokens));
  } catch (const RequestError& e) {
    prompts_.erase(index);
    TargetEvent ev = end_event(index, RequestStatus::kError, e.what());
    ev.finished_ns = cluster_.now_ns();
    sink_(std::move(ev));
  }
}

void SimulatedTarget::stop() {
  std::vector<uint64_t> unfinished;
  for (const auto& [index, prompt] : prompts_) unfinished.push_back(index);
  prompts_.clear();
  for (const uint64_t index : unfinished) {
    TargetEvent ev = end_event(index, RequestStatus::kAborted);
    ev.finished_ns = cluster_.now_ns();
    sink_(std::move(ev));
  }
}

TargetStats SimulatedTarget::stats() const {
  TargetStats s;
  s.engine = engine_stats_record(cluster_.stats());
  s.router = cluster_.router_record();
  return s;
}

int32_t SimulatedTarget::vocab_size() const { return cluster_.vocab_size(); }

void SimulatedTarget::deliver(std::vector<RequestOutput> outputs) {
  for (RequestOutput& o : outputs) {
    TargetEvent ev;
    ev.index = std::stoull(o.id);
    ev.token_times_ns = std::move(o.token_times_ns);
    ev.token_ids = std::move(o.token_ids);
    ev.cached_tokens = o.num_cached_prompt_tokens;
    ev.preemptions = o.num_preemptions;
    ev.finished = o.finished;
    if (o.finished) {
      ev.finished_ns = cluster_.now_ns();
      ev.status = o.finish_reason == FinishReason::kAbort   ? RequestStatus::kAborted
                  : o.finish_reason == FinishReason::kError ? RequestStatus::kError
                                                            : RequestStatus::kOk;
      ev.error = std::move(o.error);
      prompts_.erase(ev.index);
    }
    sink_(std::move(ev));
  }
}

}  // namespace infergate
