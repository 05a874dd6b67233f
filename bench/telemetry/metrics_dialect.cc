#include "bench/telemetry/metrics_dialect.h"

#include <map>

namespace infergate {

namespace {

// vLLM's names, which infergate serve also uses under its own prefix; the fallbacks are what
// vLLM called the same figures before (gpu_cache_usage_perc, gpu_prefix_cache_*,
// time_per_output_token_seconds, the per-token interval that became inter_token_latency).
MetricsDialect vllm_style(const std::string& name, bool with_fallbacks) {
  const std::string p = name + ":";
  MetricsDialect d{name,
                   p,
                   {p + "num_requests_running"},
                   {p + "num_requests_waiting"},
                   {p + "kv_cache_usage_perc"},
                   {p + "num_preemptions_total"},
                   {p + "prefix_cache_queries_total"},
                   {p + "prefix_cache_hits_total"},
                   {},
                   {p + "time_to_first_token_seconds"},
                   {p + "inter_token_latency_seconds"}};
  if (with_fallbacks) {
    d.kv_usage.push_back(p + "gpu_cache_usage_perc");
    d.prefix_queries.push_back(p + "gpu_prefix_cache_queries_total");
    d.prefix_hits.push_back(p + "gpu_prefix_cache_hits_total");
    d.itl.push_back(p + "time_per_output_token_seconds");
  }
  return d;
}

std::vector<MetricsDialect> make_dialects() {
  std::vector<MetricsDialect> out = {vllm_style("infergate", false), vllm_style("vllm", true)};
  out.push_back({"sglang",
                 "sglang:",
                 {"sglang:num_running_reqs"},
                 {"sglang:num_queue_reqs"},
                 {"sglang:token_usage"},
                 {},
                 {},
                 {},
                 {"sglang:cache_hit_rate"},
                 {"sglang:time_to_first_token_seconds"},
                 {"sglang:inter_token_latency_seconds", "sglang:time_per_output_token_seconds"}});
  out.push_back({"llamacpp",
                 "llamacpp:",
                 {"llamacpp:requests_processing"},
                 {"llamacpp:requests_deferred"},
                 {"llamacpp:kv_cache_usage_ratio"},
                 {},
                 {},
                 {},
                 {},
                 {},
                 {}});
  return out;
}

// The first of `names` present: the sum (or mean) of its series.
std::optional<double> read_value(const std::vector<PrometheusSample>& samples,
                                 const std::vector<std::string>& names, bool mean = false) {
  for (const std::string& name : names) {
    double total = 0;
    int series = 0;
    for (const PrometheusSample& s : samples) {
      if (s.name == name) total += s.value, ++series;
    }
    if (series > 0) return mean ? total / series : total;
  }
  return std::nullopt;
}

std::optional<HistogramSnapshot> read_histogram(const std::vector<PrometheusSample>& samples,
                                                const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (auto h = find_histogram(samples, name)) return h;
  }
  return std::nullopt;
}

}  // namespace

const std::vector<MetricsDialect>& metrics_dialects() {
  static const std::vector<MetricsDialect> dialects = make_dialects();
  return dialects;
}

const MetricsDialect* find_metrics_dialect(const std::string& name) {
  for (const MetricsDialect& d : metrics_dialects()) {
    if (d.name == name) return &d;
  }
  return nullptr;
}

const MetricsDialect* detect_metrics_dialect(const std::vector<PrometheusSample>& samples) {
  std::map<const MetricsDialect*, size_t> counts;
  for (const PrometheusSample& s : samples) {
    for (const MetricsDialect& d : metrics_dialects()) {
      if (s.name.compare(0, d.prefix.size(), d.prefix) == 0) ++counts[&d];
    }
  }
  const MetricsDialect* best = nullptr;
  for (const MetricsDialect& d : metrics_dialects()) {
    if (counts[&d] > 0 && (best == nullptr || counts[&d] > counts[best])) best = &d;
  }
  return best;
}

ServerReading read_server_metrics(const std::vector<PrometheusSample>& samples,
                                  const MetricsDialect& d) {
  ServerReading r;
  r.running = read_value(samples, d.running);
  r.waiting = read_value(samples, d.waiting);
  r.kv_usage = read_value(samples, d.kv_usage, /*mean=*/true);
  r.preemptions = read_value(samples, d.preemptions);
  r.prefix_queries = read_value(samples, d.prefix_queries);
  r.prefix_hits = read_value(samples, d.prefix_hits);
  r.prefix_hit_rate = read_value(samples, d.prefix_hit_rate, /*mean=*/true);
  r.ttft = read_histogram(samples, d.ttft);
  r.itl = read_histogram(samples, d.itl);
  return r;
}

}  // namespace infergate
