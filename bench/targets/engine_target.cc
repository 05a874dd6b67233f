#include "bench/targets/engine_target.h"

#include <string>
#include <utility>

#include "common/util/clock.h"

namespace infergate {

namespace {

// One service event as the harness sees it. A request still queued at stop() was aborted, not
// refused: the driver stopped it.
TargetEvent target_event(uint64_t index, ServiceEvent&& e) {
  if (e.refusal == Refusal::kShuttingDown) return end_event(index, RequestStatus::kAborted);
  if (e.refusal == Refusal::kInvalid) return end_event(index, RequestStatus::kError, e.error);
  const RequestOutput& o = e.output;
  TargetEvent ev;
  ev.index = index;
  ev.token_times_ns = std::move(e.output.token_times_ns);
  ev.token_ids = std::move(e.output.token_ids);
  ev.finished = o.finished;
  ev.finished_ns =
      o.finished ? (ev.token_times_ns.empty() ? now_ns() : ev.token_times_ns.back()) : 0;
  ev.status = o.finish_reason == FinishReason::kAbort   ? RequestStatus::kAborted
              : o.finish_reason == FinishReason::kError ? RequestStatus::kError
                                                        : RequestStatus::kOk;
  ev.error = o.error;  // a request the engine could never schedule says why
  ev.cached_tokens = o.num_cached_prompt_tokens;
  ev.preemptions = o.num_preemptions;
  return ev;
}

}  // namespace

EngineTarget::EngineTarget(std::unique_ptr<Engine> engine, const SamplingSpec& sampling)
    : service_(std::move(engine)), sampling_(sampling) {}

EngineTarget::~EngineTarget() { stop(); }

void EngineTarget::start(TargetEventSink sink) { sink_ = std::move(sink); }

void EngineTarget::submit(uint64_t index, const std::vector<int32_t>& prompt, int max_tokens) {
  const SamplingParams params = benchmark_sampling_params(sampling_, index, max_tokens);
  service_.submit(std::to_string(index), prompt, params,
                  [this, index](ServiceEvent e) { sink_(target_event(index, std::move(e))); });
}

void EngineTarget::stop() { service_.stop(); }

TargetStats EngineTarget::stats() const {
  TargetStats s;
  s.engine = engine_stats_record(service_.stats());
  return s;
}

int32_t EngineTarget::vocab_size() const { return service_.engine().model_config().vocab_size; }

SamplingParams benchmark_sampling_params(const SamplingSpec& sampling, uint64_t index,
                                         int max_tokens) {
  SamplingParams params;
  params.max_tokens = max_tokens;
  params.ignore_eos = true;
  if (!sampling.is_default()) {
    params.temperature = float(sampling.temperature);
    params.top_k = sampling.top_k;
    params.top_p = float(sampling.top_p);
    params.seed = SamplingSpec::request_seed(sampling.seed, index);
  }
  return params;
}

EngineStatsRecord engine_stats_record(const EngineStats& s) {
  EngineStatsRecord r;
  r.weights_bytes = int64_t(s.memory.weights_bytes);
  r.kv_cache_bytes = int64_t(s.memory.kv_cache_bytes);
  r.workspace_bytes = int64_t(s.memory.workspace_bytes);
  r.memory_total_bytes = int64_t(s.memory.total());
  r.kv_usage = s.kv_usage;
  r.num_kv_blocks = s.num_kv_blocks;
  r.num_running = int64_t(s.num_running);
  r.num_waiting = int64_t(s.num_waiting);
  r.num_preemptions = s.num_preemptions;
  r.prefix_cache_queries = s.prefix_cache.queries;
  r.prefix_cache_hits = s.prefix_cache.hits;
  r.num_steps = s.num_steps;
  r.last_step_tokens = s.last_step_tokens;
  r.total_scheduled_tokens = s.total_scheduled_tokens;
  r.num_generated_tokens = s.num_generated_tokens;
  r.schedule_ms = double(s.schedule_ns) / 1e6;
  r.execute_ms = double(s.execute_ns) / 1e6;
  r.sample_ms = double(s.sample_ns) / 1e6;
  r.update_ms = double(s.update_ns) / 1e6;
  r.injected_delay_ms = double(s.injected_delay_ns) / 1e6;
  // Multi-rank engines: layout, communication by collective, bubble, expert load (rank 0's
  // memory above is its own part).
  r.parallel = s.parallel;
  if (s.speculative) {
    r.spec_decode = {s.spec_num_drafts,
                     s.spec_num_draft_tokens,
                     s.spec_num_accepted_tokens,
                     s.spec_accepted_per_position,
                     s.speculative_method,
                     double(s.spec_propose_ns) / 1e6,
                     s.num_sampling_passes > 0
                         ? double(s.num_generated_tokens) / double(s.num_sampling_passes)
                         : 0.0};
  }
  if (s.cpu) {
    r.cpu.emplace();
    r.cpu->total_ms = double(s.cpu->total_ns) / 1e6;
    r.cpu->decode_steps_ms = double(s.cpu->decode_ns) / 1e6;
    r.cpu->prefill_steps_ms = double(s.cpu->prefill_ns) / 1e6;
    r.cpu->decode_steps_tokens = s.cpu->decode_tokens;
    r.cpu->prefill_steps_tokens = s.cpu->prefill_tokens;
    if (const std::optional<DecodeCostLine> line = s.cpu->decode_cost_line()) {
      r.cpu->decode_cost = {{line->fixed_ns / 1e6, line->per_token_ns / 1e6}};
    }
    if (const auto& h = s.hardware) {
      r.cpu->hardware = {h->instructions, h->cycles, h->decode_instructions, h->decode_cycles,
                         h->decode_tokens};
    }
    r.cpu->hardware_unavailable = s.hardware_unavailable;
  }
  return r;
}

}  // namespace infergate
