#include "common/results/server_side_record.h"

#include <utility>

namespace infergate {

namespace {

using nlohmann::json;

// The timeline's optional figures, each written only when present.
constexpr std::pair<const char*, std::optional<double> ServerTimelineSample::*> kSampleFields[] = {
    {"running", &ServerTimelineSample::running},
    {"waiting", &ServerTimelineSample::waiting},
    {"kv_usage", &ServerTimelineSample::kv_usage},
    {"preemptions", &ServerTimelineSample::preemptions},
    {"prefix_cache_hit_rate", &ServerTimelineSample::prefix_cache_hit_rate},
    {"rss_bytes", &ServerTimelineSample::rss_bytes},
    {"cpu_pct", &ServerTimelineSample::cpu_pct},
    {"gpu_memory_bytes", &ServerTimelineSample::gpu_memory_bytes}};

template <typename T>
json or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json latency_json(const std::optional<ServerLatency>& l) {
  if (!l) return nullptr;
  return {{"count", l->count},
          {"mean", or_null(l->mean)},
          {"p50", or_null(l->p50)},
          {"p95", or_null(l->p95)},
          {"p99", or_null(l->p99)}};
}

json metrics_json(const ServerMetricsRecord& m) {
  return {{"url", m.url},
          {"scraped", m.scraped},
          {"available", m.available},
          {"unavailable_reason", or_null(m.unavailable_reason)},
          {"dialect", or_null(m.dialect)},
          {"interval_ms", m.interval_ms},
          {"scrapes", m.scrapes},
          {"failed_scrapes", m.failed_scrapes},
          {"first_failure", or_null(m.first_failure)},
          {"ttft_ms", latency_json(m.ttft_ms)},
          {"itl_ms", latency_json(m.itl_ms)}};
}

json process_json(const ServerProcessRecord& p) {
  return {{"pid", or_null(p.pid)},
          {"found_by", or_null(p.found_by)},
          {"unavailable_reason", or_null(p.unavailable_reason)},
          {"peak_rss_bytes", or_null(p.peak_rss_bytes)},
          {"cpu_pct_mean", or_null(p.cpu_pct_mean)},
          {"cpu_time_source", p.cpu_time_source},
          {"peak_gpu_memory_bytes", or_null(p.peak_gpu_memory_bytes)}};
}

json transport_json(const ServerTransportRecord& t) {
  return {{"path", t.path},
          {"round_trips", t.round_trips},
          {"rtt_p50_ms", t.rtt_p50_ms},
          {"rtt_p95_ms", t.rtt_p95_ms},
          {"failure", or_null(t.failure)}};
}

json cross_check_json(const std::optional<TtftCrossCheck>& c) {
  if (!c) return nullptr;
  return {{"client_mean_ms", c->client_mean_ms}, {"client_count", c->client_count},
          {"server_mean_ms", c->server_mean_ms}, {"server_count", c->server_count},
          {"difference_ms", c->difference_ms},   {"bound_ms", c->bound_ms},
          {"disagreement", c->disagreement},     {"reason", c->reason}};
}

json timeline_json(const std::vector<ServerTimelineSample>& timeline) {
  json out = json::array();
  for (const ServerTimelineSample& s : timeline) {
    json j = {{"t_ms", s.t_ms}};
    for (const auto& [key, field] : kSampleFields) {
      if (s.*field) j[key] = *(s.*field);
    }
    out.push_back(std::move(j));
  }
  return out;
}

ServerLatency read_latency(const SectionReader& r) {
  return {r.integer("count"), r.optional_number("mean"), r.optional_number("p50"),
          r.optional_number("p95"), r.optional_number("p99")};
}

std::optional<ServerLatency> read_optional_latency(const SectionReader& r, const char* key) {
  if (!r.has(key)) return std::nullopt;
  return read_latency(r.at(key));
}

ServerMetricsRecord read_metrics(const SectionReader& r) {
  ServerMetricsRecord m;
  m.url = r.text("url");
  m.scraped = r.flag("scraped");
  m.available = r.flag("available");
  m.unavailable_reason = r.optional_text("unavailable_reason");
  m.dialect = r.optional_text("dialect");
  m.interval_ms = r.integer("interval_ms");
  m.scrapes = r.integer("scrapes");
  m.failed_scrapes = r.integer("failed_scrapes");
  m.first_failure = r.optional_text("first_failure");
  m.ttft_ms = read_optional_latency(r, "ttft_ms");
  m.itl_ms = read_optional_latency(r, "itl_ms");
  return m;
}

ServerProcessRecord read_process(const SectionReader& r) {
  ServerProcessRecord p;
  p.pid = r.optional_integer("pid");
  p.found_by = r.optional_text("found_by");
  p.unavailable_reason = r.optional_text("unavailable_reason");
  p.peak_rss_bytes = r.optional_number("peak_rss_bytes");
  p.cpu_pct_mean = r.optional_number("cpu_pct_mean");
  p.cpu_time_source = r.text("cpu_time_source");
  p.peak_gpu_memory_bytes = r.optional_number("peak_gpu_memory_bytes");
  return p;
}

ServerTransportRecord read_transport(const SectionReader& r) {
  return {r.text("path"), r.integer("round_trips"), r.number("rtt_p50_ms"), r.number("rtt_p95_ms"),
          r.optional_text("failure")};
}

std::optional<TtftCrossCheck> read_cross_check(const SectionReader& server) {
  if (!server.has("ttft_cross_check")) return std::nullopt;
  const SectionReader r = server.object("ttft_cross_check");
  return TtftCrossCheck{r.number("client_mean_ms"), r.integer("client_count"),
                        r.number("server_mean_ms"), r.integer("server_count"),
                        r.number("difference_ms"),  r.number("bound_ms"),
                        r.flag("disagreement"),     r.text("reason")};
}

ServerTimelineSample read_sample(const SectionReader& r) {
  ServerTimelineSample s;
  s.t_ms = r.number("t_ms");
  for (const auto& [key, field] : kSampleFields) s.*field = r.optional_number(key);
  return s;
}

}  // namespace

nlohmann::json to_json(const ServerSideRecord& server) {
  return {{"resource_source", server.resource_source},
          {"metrics", metrics_json(server.metrics)},
          {"process", process_json(server.process)},
          {"transport", transport_json(server.transport)},
          {"ttft_cross_check", cross_check_json(server.ttft_cross_check)},
          {"timeline", timeline_json(server.timeline)}};
}

ServerSideRecord read_server_side_record(const SectionReader& r) {
  r.expect_object();
  ServerSideRecord server;
  server.resource_source = r.text("resource_source");
  server.metrics = read_metrics(r.object("metrics"));
  server.process = read_process(r.object("process"));
  server.transport = read_transport(r.object("transport"));
  server.ttft_cross_check = read_cross_check(r);
  for (const SectionReader& sample : r.array("timeline")) {
    server.timeline.push_back(read_sample(sample));
  }
  return server;
}

}  // namespace infergate
