#include "common/results/target_stats.h"

namespace infergate {

namespace {

nlohmann::json hardware_json(const EngineStatsRecord::Cpu& cpu) {
  if (!cpu.hardware) return {{"available", false}, {"reason", cpu.hardware_unavailable}};
  const auto& h = *cpu.hardware;
  return {{"available", true},
          {"instructions", h.instructions},
          {"cycles", h.cycles},
          {"decode_steps",
           {{"instructions", h.decode_steps_instructions},
            {"cycles", h.decode_steps_cycles},
            {"tokens", h.decode_steps_tokens}}}};
}

nlohmann::json engine_json(const EngineStatsRecord& s) {
  nlohmann::json j = {{"weights_bytes", s.weights_bytes},
                      {"kv_cache_bytes", s.kv_cache_bytes},
                      {"workspace_bytes", s.workspace_bytes},
                      {"memory_total_bytes", s.memory_total_bytes},
                      {"kv_usage", s.kv_usage},
                      {"num_kv_blocks", s.num_kv_blocks},
                      {"num_running", s.num_running},
                      {"num_waiting", s.num_waiting},
                      {"num_preemptions", s.num_preemptions},
                      {"prefix_cache_queries", s.prefix_cache_queries},
                      {"prefix_cache_hits", s.prefix_cache_hits},
                      {"num_steps", s.num_steps},
                      {"last_step_tokens", s.last_step_tokens},
                      {"total_scheduled_tokens", s.total_scheduled_tokens},
                      {"num_generated_tokens", s.num_generated_tokens},
                      {"step_time_ms",
                       {{"schedule", s.schedule_ms},
                        {"execute", s.execute_ms},
                        {"sample", s.sample_ms},
                        {"update", s.update_ms},
                        {"injected_delay", s.injected_delay_ms}}}};
  if (!s.parallel.is_null()) j["parallel"] = s.parallel;
  if (const auto& d = s.spec_decode) {
    const double drafts = double(d->num_drafts), tokens = double(d->num_draft_tokens);
    const double step_ms = s.schedule_ms + s.execute_ms + s.sample_ms + s.update_ms;
    j["spec_decode"] = {
        {"num_drafts", d->num_drafts},
        {"num_draft_tokens", d->num_draft_tokens},
        {"num_accepted_tokens", d->num_accepted_tokens},
        {"accepted_per_position", d->accepted_per_position},
        {"acceptance_rate", tokens > 0 ? double(d->num_accepted_tokens) / tokens : 0.0},
        // vLLM's mean acceptance length: tokens a verification emits (accepted + the target's).
        {"mean_acceptance_length",
         drafts > 0 ? 1.0 + double(d->num_accepted_tokens) / drafts : 0.0},
        {"method", d->method},
        {"propose_ms", d->propose_ms},
        // The share of the steps' time spent proposing (drafting is part of the step).
        {"draft_time_share",
         step_ms + d->propose_ms > 0 ? d->propose_ms / (step_ms + d->propose_ms) : 0.0},
        // Tokens one target pass gave a sequence: 1 without speculation.
        {"tokens_per_target_pass",
         d->sampling_passes > 0 ? double(d->generated_tokens) / double(d->sampling_passes) : 0.0}};
  }
  if (s.cpu) {
    j["cpu"] = {{"total_ms", s.cpu->total_ms},
                {"decode_steps",
                 {{"cpu_ms", s.cpu->decode_steps_ms}, {"tokens", s.cpu->decode_steps_tokens}}},
                {"prefill_steps",
                 {{"cpu_ms", s.cpu->prefill_steps_ms}, {"tokens", s.cpu->prefill_steps_tokens}}},
                {"decode_cost", nullptr}};
    if (const auto& line = s.cpu->decode_cost) {
      j["cpu"]["decode_cost"] = {{"fixed_ms", line->fixed_ms},
                                 {"per_token_ms", line->per_token_ms}};
    }
    j["cpu"]["hardware_counters"] = hardware_json(*s.cpu);
  }
  return j;
}

nlohmann::json http_client_json(const HttpClientRecord& s) {
  nlohmann::json status = nlohmann::json::object();
  for (const auto& [code, n] : s.by_http_status) status[std::to_string(code)] = n;
  return {{"requests", s.requests},
          {"in_flight", s.in_flight},
          {"peak_in_flight", s.peak_in_flight},
          {"ok", s.ok},
          {"aborted", s.aborted},
          {"errors", s.errors()},
          {"errors_by_kind",
           {{"http_status", status},
            {"connect", s.connect},
            {"timeout", s.timeout},
            {"connection_lost", s.connection_lost},
            {"incomplete_stream", s.incomplete_stream},
            {"stream_error", s.stream_error}}},
          {"connections",
           {{"opened", s.connections_opened},
            {"reused", s.connections_reused},
            {"stale_retries", s.stale_retries},
            {"closed_idle", s.closed_idle}}},
          {"usage",
           {{"mismatches", s.usage_mismatches},
            {"missing", s.usage_missing},
            {"mismatch_examples", s.mismatch_examples}}}};
}

nlohmann::json replicas_json(const std::vector<RouterRecord::Replica>& list, bool live) {
  nlohmann::json replicas = nlohmann::json::array();
  for (const RouterRecord::Replica& x : list) {
    if (live) {
      replicas.push_back({{"url", x.url}, {"in_flight", x.in_flight}, {"healthy", x.healthy}});
      continue;
    }
    replicas.push_back({{"url", x.url},
                        {"routed", x.routed},
                        {"succeeded", x.succeeded},
                        {"failed", x.failed},
                        {"restarts", x.restarts},
                        {"prefix_hit_rate", x.prefix_hit_rate}});
  }
  return replicas;
}

nlohmann::json disaggregation_json(const RouterRecord::Disaggregation& d, bool live) {
  nlohmann::json j = {{"prefill_replicas", replicas_json(d.prefill, live)},
                      {"kv_read_rate_cap_mb_s", d.kv_read_rate_cap_mb_s}};
  if (live) return j;
  j["prefills"] = {{"exported", d.prefills_exported}, {"fallback", d.prefill_fallbacks}};
  j["reads"] = d.reads;
  j["read_fallbacks"] = d.read_fallbacks;
  j["kv_bytes"] = d.kv_bytes;
  j["bandwidth_mb_s"] = d.bandwidth_mb_s;
  j["read_ms"] = {{"p50", d.read_ms_p50}, {"p95", d.read_ms_p95}};
  j["prefill_ms"] = {{"p50", d.prefill_ms_p50}, {"p95", d.prefill_ms_p95}};
  j["ttft_share_p50"] = d.ttft_share_p50;
  return j;
}

nlohmann::json router_json(const RouterRecord& r) {
  const nlohmann::json replicas = replicas_json(r.replicas, r.live);
  if (r.live) {
    nlohmann::json j = {{"policy", r.policy}, {"replicas", replicas}};
    if (r.disaggregation) j["disaggregation"] = disaggregation_json(*r.disaggregation, true);
    return j;
  }
  nlohmann::json faults = nlohmann::json::array();
  for (const RouterRecord::Fault& f : r.faults) {
    nlohmann::json j = {{"kill_replica", f.replica},
                        {"pid", f.pid},
                        {"at_ms", f.at_ms},
                        {"in_flight", f.in_flight}};
    if (!f.error.empty()) j["error"] = f.error;
    faults.push_back(j);
  }
  nlohmann::json j = {
      {"policy", r.policy},
      {"replicas", replicas},
      {"prefix_hit_rate",
       {{"achieved", r.prefix_hit_rate_achieved}, {"oracle", r.prefix_hit_rate_oracle}}},
      {"retries", r.retries},
      {"broken_streams", r.broken_streams},
      {"migrations", r.migrations},
      {"migrations_failed", r.migrations_failed},
      {"migration_delay_ms",
       {{"mean", r.migration_delay_mean_ms}, {"max", r.migration_delay_max_ms}}},
      {"faults", faults}};
  if (r.disaggregation) j["disaggregation"] = disaggregation_json(*r.disaggregation, false);
  return j;
}

}  // namespace

int64_t HttpClientRecord::errors() const {
  int64_t n = connect + timeout + connection_lost + incomplete_stream + stream_error;
  for (const auto& [code, count] : by_http_status) n += count;
  return n;
}

nlohmann::json to_json(const TargetStats& stats) {
  nlohmann::json j = stats.engine ? engine_json(*stats.engine) : nlohmann::json::object();
  if (stats.http_client) j["http_client"] = http_client_json(*stats.http_client);
  if (stats.router) j["router"] = router_json(*stats.router);
  return j;
}

}  // namespace infergate
