#include "bench/results/repetition_result.h"

#include <optional>

#include "bench/results/recorded_request_of.h"

namespace infergate {

void add_engine_counters(RunSummary& s, const TargetStats& target) {
  if (!target.engine) return;
  s.prefix_cache_hit_rate = target.engine->prefix_cache_hit_rate();
  s.preemptions = target.engine->num_preemptions;
  if (const auto& d = target.engine->spec_decode) {
    if (d->num_draft_tokens > 0) {
      s.spec_acceptance_rate = double(d->num_accepted_tokens) / double(d->num_draft_tokens);
    }
    if (d->tokens_per_target_pass > 0) s.spec_tokens_per_target_pass = d->tokens_per_target_pass;
  }
  if (const auto& engine_cpu = target.engine->cpu) {
    const auto per_token = [](double ms, int64_t tokens) {
      return tokens > 0 ? std::optional<double>(ms / double(tokens)) : std::nullopt;
    };
    s.engine_cpu_ms_per_decode_token =
        per_token(engine_cpu->decode_steps_ms, engine_cpu->decode_steps_tokens);
    s.engine_cpu_ms_per_prefill_token =
        per_token(engine_cpu->prefill_steps_ms, engine_cpu->prefill_steps_tokens);
    // The fitted line's value at one token; a noisy fit (few batch sizes, a busy machine) can
    // put it at or below zero, which is no measurement of a step: left out then.
    if (const auto& line = engine_cpu->decode_cost;
        line && line->fixed_ms + line->per_token_ms > 0) {
      s.engine_cpu_ms_per_single_decode_step = line->fixed_ms + line->per_token_ms;
    }
    if (const auto& h = engine_cpu->hardware; h && h->decode_steps_tokens > 0) {
      s.engine_instructions_per_decode_token =
          double(h->decode_steps_instructions) / double(h->decode_steps_tokens);
    }
  }
}

RepetitionResult make_repetition_result(int index, const DriverResult& run,
                                        const RunSummary& summary, const TargetStats& stats,
                                        bool record_requests) {
  RepetitionResult r;
  r.index = index;
  r.incomplete = run.incomplete;
  r.summary = summary_to_json(summary);
  r.errors = summary.error_classes;
  r.engine = stats;
  if (record_requests) {
    for (const RequestRecord& rec : run.records) {
      r.requests.push_back(recorded_request_of(rec, run.start_ns));
    }
  }
  return r;
}

}  // namespace infergate
