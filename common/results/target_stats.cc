#include "common/results/target_stats.h"

#include <cstdlib>

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
  if (s.parallel) j["parallel"] = to_json(*s.parallel);
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
        {"tokens_per_target_pass", d->tokens_per_target_pass}};
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
  nlohmann::json j = {{"requests", s.requests},
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
                        {"mismatch_examples", s.mismatch_examples},
                        {"prompt_checked", s.prompt_checked},
                        {"prompt_mismatches", s.prompt_mismatches},
                        {"prompt_mismatch_examples", s.prompt_mismatch_examples}}}};
  if (s.tls_handshakes > 0) {  // only over TLS: plain targets' files stay as they were
    j["connections"]["tls_handshakes"] = s.tls_handshakes;
    j["connections"]["tls_handshake_ms_mean"] = s.tls_handshake_ms_mean;
    j["connections"]["tls_handshake_ms_max"] = s.tls_handshake_ms_max;
  }
  return j;
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

// ---- the reader: each writer above, backwards

EngineStatsRecord::Cpu read_cpu(const SectionReader& r) {
  EngineStatsRecord::Cpu c;
  c.total_ms = r.number("total_ms");
  const SectionReader decode = r.object("decode_steps"), prefill = r.object("prefill_steps");
  c.decode_steps_ms = decode.number("cpu_ms");
  c.decode_steps_tokens = decode.integer("tokens");
  c.prefill_steps_ms = prefill.number("cpu_ms");
  c.prefill_steps_tokens = prefill.integer("tokens");
  if (r.has("decode_cost")) {
    const SectionReader line = r.object("decode_cost");
    c.decode_cost =
        EngineStatsRecord::Cpu::Line{line.number("fixed_ms"), line.number("per_token_ms")};
  }
  const SectionReader h = r.object("hardware_counters");
  if (!h.flag("available")) {
    c.hardware_unavailable = h.text("reason");
    return c;
  }
  const SectionReader d = h.object("decode_steps");
  c.hardware = EngineStatsRecord::Cpu::HardwareCounts{
      h.integer("instructions"), h.integer("cycles"), d.integer("instructions"),
      d.integer("cycles"), d.integer("tokens")};
  return c;
}

EngineStatsRecord::SpecDecode read_spec_decode(const SectionReader& r) {
  EngineStatsRecord::SpecDecode d;
  d.num_drafts = r.integer("num_drafts");
  d.num_draft_tokens = r.integer("num_draft_tokens");
  d.num_accepted_tokens = r.integer("num_accepted_tokens");
  for (const SectionReader& n : r.array("accepted_per_position")) {
    d.accepted_per_position.push_back(n.as_integer());
  }
  d.method = r.text("method");
  d.propose_ms = r.number("propose_ms");
  d.tokens_per_target_pass = r.number("tokens_per_target_pass");
  return d;
}

EngineStatsRecord read_engine(const SectionReader& r) {
  EngineStatsRecord s;
  s.weights_bytes = r.integer("weights_bytes");
  s.kv_cache_bytes = r.integer("kv_cache_bytes");
  s.workspace_bytes = r.integer("workspace_bytes");
  s.memory_total_bytes = r.integer("memory_total_bytes");
  s.kv_usage = r.number("kv_usage");
  s.num_kv_blocks = r.integer("num_kv_blocks");
  s.num_running = r.integer("num_running");
  s.num_waiting = r.integer("num_waiting");
  s.num_preemptions = r.integer("num_preemptions");
  s.prefix_cache_queries = r.integer("prefix_cache_queries");
  s.prefix_cache_hits = r.integer("prefix_cache_hits");
  s.num_steps = r.integer("num_steps");
  s.last_step_tokens = r.integer("last_step_tokens");
  s.total_scheduled_tokens = r.integer("total_scheduled_tokens");
  s.num_generated_tokens = r.integer("num_generated_tokens");
  const SectionReader t = r.object("step_time_ms");
  s.schedule_ms = t.number("schedule");
  s.execute_ms = t.number("execute");
  s.sample_ms = t.number("sample");
  s.update_ms = t.number("update");
  s.injected_delay_ms = t.number("injected_delay");
  if (r.has("parallel")) s.parallel = read_parallel_record(r.object("parallel"));
  if (r.has("spec_decode")) s.spec_decode = read_spec_decode(r.object("spec_decode"));
  if (r.has("cpu")) s.cpu = read_cpu(r.object("cpu"));
  return s;
}

HttpClientRecord read_http_client(const SectionReader& r) {
  HttpClientRecord c;
  c.requests = r.integer("requests");
  c.in_flight = r.integer("in_flight");
  c.peak_in_flight = r.integer("peak_in_flight");
  c.ok = r.integer("ok");
  c.aborted = r.integer("aborted");
  const SectionReader kinds = r.object("errors_by_kind");
  for (const auto& [code, n] : kinds.object("http_status").members()) {
    char* end = nullptr;
    const long status = std::strtol(code.c_str(), &end, 10);
    if (code.empty() || *end != '\0' || status < 100 || status > 599) {
      n.fail("\"" + code + "\" is not an HTTP status (100 .. 599)");
    }
    c.by_http_status[int(status)] = n.as_integer();
  }
  c.connect = kinds.integer("connect");
  c.timeout = kinds.integer("timeout");
  c.connection_lost = kinds.integer("connection_lost");
  c.incomplete_stream = kinds.integer("incomplete_stream");
  c.stream_error = kinds.integer("stream_error");
  const SectionReader conn = r.object("connections");
  c.connections_opened = conn.integer("opened");
  c.connections_reused = conn.integer("reused");
  c.stale_retries = conn.integer("stale_retries");
  c.closed_idle = conn.integer("closed_idle");
  c.tls_handshakes = conn.integer_or("tls_handshakes", 0);
  c.tls_handshake_ms_mean = conn.number_or("tls_handshake_ms_mean", 0);
  c.tls_handshake_ms_max = conn.number_or("tls_handshake_ms_max", 0);
  const SectionReader usage = r.object("usage");
  c.usage_mismatches = usage.integer("mismatches");
  c.usage_missing = usage.integer("missing");
  for (const SectionReader& e : usage.array("mismatch_examples")) {
    c.mismatch_examples.push_back(e.as_text());
  }
  // Results written before prompt counts were checked have none.
  c.prompt_checked = usage.integer_or("prompt_checked", 0);
  c.prompt_mismatches = usage.integer_or("prompt_mismatches", 0);
  if (usage.has("prompt_mismatch_examples")) {
    for (const SectionReader& e : usage.array("prompt_mismatch_examples")) {
      c.prompt_mismatch_examples.push_back(e.as_text());
    }
  }
  return c;
}

std::vector<RouterRecord::Replica> read_replicas(const SectionReader& list, bool live) {
  std::vector<RouterRecord::Replica> out;
  for (const SectionReader& x : list.elements()) {
    RouterRecord::Replica r;
    r.url = x.text("url");
    if (live) {
      r.in_flight = x.integer("in_flight");
      r.healthy = x.flag("healthy");
    } else {
      r.routed = x.integer("routed");
      r.succeeded = x.integer("succeeded");
      r.failed = x.integer("failed");
      r.restarts = x.integer("restarts");
      r.prefix_hit_rate = x.number("prefix_hit_rate");
    }
    out.push_back(std::move(r));
  }
  return out;
}

RouterRecord::Disaggregation read_disaggregation(const SectionReader& r, bool live) {
  RouterRecord::Disaggregation d;
  d.prefill = read_replicas(r.at("prefill_replicas"), live);
  d.kv_read_rate_cap_mb_s = r.number("kv_read_rate_cap_mb_s");
  if (live) return d;
  const SectionReader prefills = r.object("prefills");
  d.prefills_exported = prefills.integer("exported");
  d.prefill_fallbacks = prefills.integer("fallback");
  d.reads = r.integer("reads");
  d.read_fallbacks = r.integer("read_fallbacks");
  d.kv_bytes = r.integer("kv_bytes");
  d.bandwidth_mb_s = r.number("bandwidth_mb_s");
  const SectionReader read = r.object("read_ms"), prefill = r.object("prefill_ms");
  d.read_ms_p50 = read.number("p50");
  d.read_ms_p95 = read.number("p95");
  d.prefill_ms_p50 = prefill.number("p50");
  d.prefill_ms_p95 = prefill.number("p95");
  d.ttft_share_p50 = r.number("ttft_share_p50");
  return d;
}

RouterRecord::Fault read_fault(const SectionReader& f) {
  return {int(f.integer("kill_replica")), int(f.integer("pid")), f.number("at_ms"),
          f.integer("in_flight"), f.text_or("error", "")};
}

// A timeline sample's record is live: the replicas' url, in flight and health, nothing summed.
RouterRecord read_router(const SectionReader& r) {
  RouterRecord x;
  x.live = !r.has("prefix_hit_rate");
  x.policy = r.text("policy");
  x.replicas = read_replicas(r.at("replicas"), x.live);
  if (r.has("disaggregation")) {
    x.disaggregation = read_disaggregation(r.object("disaggregation"), x.live);
  }
  if (x.live) return x;
  const SectionReader hit = r.object("prefix_hit_rate");
  x.prefix_hit_rate_achieved = hit.number("achieved");
  x.prefix_hit_rate_oracle = hit.number("oracle");
  x.retries = r.integer("retries");
  x.broken_streams = r.integer("broken_streams");
  x.migrations = r.integer("migrations");
  x.migrations_failed = r.integer("migrations_failed");
  const SectionReader delay = r.object("migration_delay_ms");
  x.migration_delay_mean_ms = delay.number("mean");
  x.migration_delay_max_ms = delay.number("max");
  for (const SectionReader& f : r.array("faults")) x.faults.push_back(read_fault(f));
  return x;
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

TargetStats read_target_stats(const SectionReader& r) {
  r.expect_object();
  TargetStats s;
  if (r.has("weights_bytes")) s.engine = read_engine(r);
  if (r.has("http_client")) s.http_client = read_http_client(r.object("http_client"));
  if (r.has("router")) s.router = read_router(r.object("router"));
  return s;
}

}  // namespace infergate
