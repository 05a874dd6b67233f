#include "bench/workload/workload_json.h"

#include "bench/workload/capacity_search_reader.h"
#include "bench/workload/engine_config_json.h"

namespace infergate {

namespace {

using nlohmann::json;

json router_to_json(const RouterTargetSpec& r) {
  json j = {{"replicas", r.replicas},
            {"policy", r.policy},
            {"restart_delay_s", r.restart_delay_s},
            {"pin_replicas", r.pin_replicas}};
  // Only when set, so colocated router workloads keep the hash their baselines have.
  if (r.prefill_replicas > 0) j["prefill_replicas"] = r.prefill_replicas;
  if (r.kv_read_rate_mb_s > 0) j["kv_read_rate_mb_s"] = r.kv_read_rate_mb_s;
  return j;
}

json target_to_json(const TargetSpec& t) {
  if (t.type == "echo") return {{"type", t.type}, {"token_delay_us", t.echo_token_delay_us}};
  if (t.type == "openai") {
    json j = {{"type", t.type},
              {"url", t.url},
              {"model", t.model_name},
              {"api", t.api},
              {"timeout_s", t.timeout_s}};
    if (t.vocab_size > 0) j["vocab_size"] = t.vocab_size;  // absent: the server's
    if (t.tokenizer) j["tokenizer"] = t.tokenizer->path;   // absent: hashes unchanged
    if (!t.headers.empty()) {
      json headers = json::object();  // as written: ${NAME} stays a reference
      for (const auto& [name, value] : t.headers) headers[name] = value;
      j["headers"] = headers;
    }
    if (!t.think_close.empty()) {
      j["reasoning_span"] = {{"open", t.think_open}, {"close", t.think_close}};
    }
    if (!t.tls_verify || !t.tls_ca_file.empty()) {
      j["tls"] = {{"verify", t.tls_verify}};
      if (!t.tls_ca_file.empty()) j["tls"]["ca_file"] = t.tls_ca_file;
    }
    // Only when not the default, so openai workloads keep the hash their baselines have (a
    // scrape every 500 ms costs the server well under 1% of a core).
    const ServerMetricsSpec& m = t.server_metrics;
    if (!m.is_default()) {
      j["server_metrics"] = {{"scrape", m.scrape},
                             {"path", m.path},
                             {"interval_ms", m.interval_ms},
                             {"dialect", m.dialect},
                             {"pid", m.pid}};
    }
    return j;
  }
  if (t.type == "simulated") {
    json j = {{"type", t.type},
              {"model", t.simulated.model},
              {"hardware", t.simulated.hardware},
              {"memory_utilization", t.simulated.memory_utilization},
              {"engine", engine_config_to_json(t.engine)}};
    if (!t.simulated.calibration.empty()) j["calibration"] = t.simulated.calibration;
    if (!t.simulated.weight_dtype.empty()) j["weight_dtype"] = t.simulated.weight_dtype;
    if (t.simulated.routed) j["router"] = router_to_json(t.router);
    return j;
  }
  json j = {{"type", t.type},
            {"model", model_source_to_json(t.model)},
            {"engine", engine_config_to_json(t.engine)}};
  if (t.type == "router") {
    j["api"] = t.api;
    j["timeout_s"] = t.timeout_s;
    j["router"] = router_to_json(t.router);
  }
  return j;
}

json faults_to_json(const std::vector<FaultSpec>& faults) {
  json out = json::array();
  for (const FaultSpec& f : faults) {
    json j = {{"kill_replica", f.kill_replica}};
    if (f.after_requests > 0) {
      j["after_requests"] = f.after_requests;
    } else {
      j["at_s"] = f.at_s;
    }
    out.push_back(j);
  }
  return out;
}

json dataset_to_json(const DatasetSpec& d, uint64_t workload_seed) {
  const uint64_t seed = d.seed.value_or(workload_seed);
  if (d.type == "jsonl") {
    return {{"type", d.type}, {"path", d.path}, {"format", d.format}, {"seed", seed}};
  }
  if (d.type == "sessions") {
    const SessionsSpec& s = d.sessions;
    json j = {
        {"type", d.type}, {"format", d.format}, {"num_sessions", s.num_sessions}, {"seed", seed}};
    if (d.format == "sharegpt") {
      j["path"] = d.path;
      return j;
    }
    j["turns"] = length_distribution_to_json(s.turns);
    j["input_tokens"] = length_distribution_to_json(d.input_tokens);
    j["output_tokens"] = length_distribution_to_json(d.output_tokens);
    j["system_prompt_tokens"] = s.system_prompt_tokens;
    return j;
  }
  if (d.type == "trace") {
    const TraceSpec& t = d.trace;
    json j = {{"type", d.type},       {"path", d.path},       {"format", d.format},
              {"speedup", t.speedup}, {"start_s", t.start_s}, {"seed", seed}};
    if (t.end_s > 0) j["end_s"] = t.end_s;
    if (t.max_requests > 0) j["max_requests"] = t.max_requests;
    if (d.format == "mooncake") j["block_tokens"] = t.block_tokens;
    return j;
  }
  const SharedPrefixSpec& p = d.shared_prefix;
  return {{"type", d.type},
          {"input_tokens", length_distribution_to_json(d.input_tokens)},
          {"output_tokens", length_distribution_to_json(d.output_tokens)},
          {"shared_prefix",
           {{"num_prefixes", p.num_prefixes},
            {"prefix_tokens", p.prefix_tokens},
            {"fraction", p.fraction}}},
          {"seed", seed}};
}

json ramp_to_json(const RampSpec& r) {
  return {{"shape", r.shape},
          {"from", r.from},
          {"to", r.to},
          {"stages", r.stages},
          {"stage_s", r.stage_s}};
}

json saturation_stop_to_json(const SaturationStopSpec& s) {
  json j = json::object();
  if (s.ttft_p95_ms) j["ttft_p95_ms"] = *s.ttft_p95_ms;
  if (s.e2e_p95_ms) j["e2e_p95_ms"] = *s.e2e_p95_ms;
  if (s.error_share) j["error_share"] = *s.error_share;
  return j;
}

json load_to_json(const LoadSpec& l) {
  json j = {{"mode", load_mode_name(l.mode)}, {"warmup_requests", l.warmup_requests}};
  if (l.num_requests > 0 && !l.search) j["num_requests"] = l.num_requests;
  if (l.duration_s > 0) j["duration_s"] = l.duration_s;
  if (l.mode == LoadMode::kTrace) return j;  // the trace gives the times and the count
  if (l.mode == LoadMode::kSessions) {
    j["concurrency"] = l.concurrency;
    j["think_time_s"] = l.think_time_s;
    return j;
  }
  if (l.ramp) {  // the ramp gives the rate or the users, stage by stage
    j["ramp"] = ramp_to_json(*l.ramp);
    if (!l.stop_when.empty()) j["stop_when"] = saturation_stop_to_json(l.stop_when);
  }
  if (l.search) j["search"] = search_to_json(*l.search, l.mode);
  const bool load_given = !l.ramp && !l.search;  // else the stages or the probes give it
  if (l.mode == LoadMode::kClosed) {
    if (load_given) j["concurrency"] = l.concurrency;
    return j;
  }
  if (load_given) j["rate"] = l.rate;
  j["arrival"] = l.arrival;
  if (l.arrival == "gamma") j["burstiness"] = l.burstiness;
  j["max_concurrency"] = l.max_concurrency;
  return j;
}

json sweep_to_json(const SweepSpec& s) {
  json values = json::array();
  for (const double v : s.values) {
    if (s.field != "load.rate" && s.field != kSweepKvReadRate) {  // counts
      values.push_back(static_cast<int>(v));
    } else {
      values.push_back(v);
    }
  }
  return {{"field", s.field}, {"values", values}};
}

json slo_to_json(const SloSpec& s) {
  json j = json::object();
  if (s.ttft_ms) j["ttft_ms"] = *s.ttft_ms;
  if (s.tpot_ms) j["tpot_ms"] = *s.tpot_ms;
  if (s.e2e_ms) j["e2e_ms"] = *s.e2e_ms;
  return j;
}

json quality_to_json(const QualitySpec& q) {
  return {{"text", q.text},
          {"baseline_dtype", q.baseline_dtype},
          {"context", q.context},
          {"chunks", q.chunks}};
}

}  // namespace

json length_distribution_to_json(const LengthDistribution& d) {
  using Kind = LengthDistribution::Kind;
  switch (d.kind) {
    case Kind::kFixed:
      return {{"dist", "fixed"}, {"value", d.value}};
    case Kind::kUniform:
      return {{"dist", "uniform"}, {"min", d.min}, {"max", d.max}};
    case Kind::kNormal:
    case Kind::kLognormal:
      break;
  }
  return {{"dist", d.kind == Kind::kNormal ? "normal" : "lognormal"},
          {"mean", d.mean},
          {"stddev", d.stddev},
          {"min", d.min},
          {"max", d.max}};
}

json model_source_to_json(const ModelSource& m) {
  if (m.kind == "synthetic") return {{"preset", m.preset}, {"seed", m.seed}};
  return {{m.kind, m.path}};
}

json workload_to_json(const Workload& w) {
  json j = {{"schema", w.schema},
            {"name", w.name},
            {"description", w.description},
            {"seed", w.seed},
            {"repetitions", w.repetitions},
            {"record_requests", w.record_requests},
            {"overrides", w.overrides},
            {"target", target_to_json(w.target)},
            {"dataset", dataset_to_json(w.dataset, w.seed)},
            {"load", load_to_json(w.load)},
            {"slo", slo_to_json(w.slo)}};
  if (w.sweep) j["sweep"] = sweep_to_json(*w.sweep);
  if (!w.faults.empty()) j["faults"] = faults_to_json(w.faults);  // absent: hashes unchanged
  // Only when on: workloads without tracing keep the hash their baselines were measured with.
  if (w.telemetry.cupti) j["telemetry"] = {{"cupti", true}};
  // Written only when not greedy: the hash of every greedy workload stays what it was.
  if (!w.sampling.is_default()) {
    j["sampling"] = {{"temperature", w.sampling.temperature},
                     {"top_k", w.sampling.top_k},
                     {"top_p", w.sampling.top_p}};
  }
  if (w.quality) j["quality"] = quality_to_json(*w.quality);  // absent: hashes unchanged
  if (w.structured_output) j["structured_output"] = {{"path", w.structured_output->path}};
  return j;
}

}  // namespace infergate
