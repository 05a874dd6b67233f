#include "sim/simulated_executor.h"

#include <cmath>
#include <stdexcept>

#include "common/util/fnv1a.h"

namespace infergate {

SimulatedExecutor::SimulatedExecutor(StepCostModel model, VirtualClock& clock, MemoryLedger memory,
                                     int64_t decode_delay_ns)
    : model_(std::move(model)), clock_(clock), memory_(memory), decode_delay_ns_(decode_delay_ns) {}

StepTime SimulatedExecutor::simulate(const SchedulerOutput& out) {
  std::vector<SequenceWork> work;
  work.reserve(out.scheduled.size());
  bool decodes = false;
  for (const ScheduledSequence& s : out.scheduled) {
    work.push_back(
        {double(s.num_new_tokens), double(s.seq->num_computed_tokens), double(s.num_logit_rows())});
    decodes = decodes || s.seq->num_computed_tokens >= s.seq->num_prompt_tokens;
  }
  if (busy_host_ranks_) model_.share_host(*busy_host_ranks_);
  StepTime t = model_.step(work);
  int64_t ns = int64_t(std::llround(t.seconds * 1e9));
  if (decodes) ns += decode_delay_ns_;
  clock_.advance_ns(ns);
  ++steps_;
  totals_.seconds += t.seconds;
  totals_.compute_s += t.compute_s;
  totals_.communication_s += t.communication_s;
  totals_.overhead_s += t.overhead_s;
  for (const auto& [op, s] : t.by_operator) totals_.by_operator[op] += s;
  return t;
}

std::vector<float> SimulatedExecutor::execute(const SchedulerOutput& /*out*/) {
  throw std::logic_error("the simulated executor samples itself; call execute_and_sample()");
}

std::vector<int32_t> SimulatedExecutor::execute_and_sample(
    const SchedulerOutput& out, const std::vector<SamplingDraw>& /*draws*/) {
  simulate(out);
  const int32_t vocab = model_.model().vocab_size;
  const int32_t eos = model_.model().eos_token_id;
  std::vector<int32_t> tokens;
  for (const ScheduledSequence& s : out.scheduled) {
    if (!s.samples()) continue;
    // A token from the request's id and position: the same run gives the same tokens.
    const uint64_t h = fnv1a64(s.seq->id) ^ (uint64_t(s.seq->num_tokens()) * 0x9e3779b97f4a7c15ULL);
    int32_t token = int32_t(h % uint64_t(vocab));
    if (token == eos) token = (token + 1) % vocab;
    tokens.push_back(token);
  }
  return tokens;
}

std::optional<ParallelRecord> SimulatedExecutor::parallel_stats() const {
  const SimLayout& l = model_.layout();
  ParallelRecord p;
  p.tensor_parallel = l.tensor_parallel;
  p.pipeline_parallel = l.pipeline_parallel;
  p.expert_parallel = l.expert_parallel;
  p.micro_batches = l.micro_batches;
  p.steps = steps_;
  ParallelRecord::Simulated& c = p.simulated.emplace();
  c.step_ms = totals_.seconds * 1e3;
  c.compute_ms = totals_.compute_s * 1e3;
  c.communication_ms = totals_.communication_s * 1e3;
  c.overhead_ms = totals_.overhead_s * 1e3;
  for (const auto& [op, seconds] : totals_.by_operator) c.operator_ms[op] = seconds * 1e3;
  return p;
}

}  // namespace infergate
