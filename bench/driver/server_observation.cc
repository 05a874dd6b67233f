#include "bench/driver/server_observation.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "bench/http/target_access.h"
#include "bench/metrics/ttft_cross_check.h"
#include "bench/telemetry/listening_process.h"

namespace infergate {

namespace {

constexpr int kProbeRoundTrips = 20;
constexpr double kProbeTimeoutS = 2;

std::optional<std::string> text_or_null(const std::string& text) {
  return text.empty() ? std::nullopt : std::optional<std::string>(text);
}

// The server's own latency over the run: the histogram's change from the first scrape to the
// last, in milliseconds; nullopt when the server has no such histogram.
std::optional<ServerLatency> latency(const std::optional<HistogramSnapshot>& first,
                                     const std::optional<HistogramSnapshot>& last) {
  if (!last) return std::nullopt;
  const HistogramSnapshot d = first ? histogram_delta(*last, *first) : *last;
  const auto in_ms = [](std::optional<double> seconds) {
    return seconds ? std::optional<double>(*seconds * 1e3) : std::nullopt;
  };
  return ServerLatency{int64_t(d.count), in_ms(histogram_mean(d)),
                       in_ms(histogram_quantile(0.50, d)), in_ms(histogram_quantile(0.95, d)),
                       in_ms(histogram_quantile(0.99, d))};
}

std::vector<ServerTimelineSample> timeline(const std::vector<ServerSample>& samples,
                                           int64_t origin_ns) {
  std::vector<ServerTimelineSample> out;
  out.reserve(samples.size());
  for (const ServerSample& s : samples) {
    out.push_back({double(s.time_ns - origin_ns) * 1e-6, s.running, s.waiting, s.kv_usage,
                   s.preemptions, s.prefix_cache_hit_rate, s.rss_bytes, s.cpu_pct,
                   s.gpu_memory_bytes});
  }
  return out;
}

ServerTransportRecord transport_record(const TransportProbe& t) {
  return {t.path, t.round_trips, t.rtt_p50_ms, t.rtt_p95_ms, text_or_null(t.failure)};
}

// The client's TTFT from the send, over every request that got a first token: the same
// requests the server's histogram counts (warm-up included).
std::pair<double, int64_t> client_ttft_from_send(const std::vector<RequestRecord>& records) {
  double total_ms = 0;
  int64_t n = 0;
  for (const RequestRecord& r : records) {
    if (r.sent_ns <= 0 || r.first_token_ns <= 0) continue;
    total_ms += double(r.first_token_ns - r.sent_ns) * 1e-6;
    ++n;
  }
  return {n ? total_ms / double(n) : 0.0, n};
}

struct ProcessFigures {
  std::optional<double> peak_rss, mean_cpu_pct, peak_gpu_memory;
};

ProcessFigures process_figures(const std::vector<ServerSample>& samples) {
  ProcessFigures f;
  double cpu = 0;
  int cpu_n = 0;
  for (const ServerSample& s : samples) {
    if (s.rss_bytes) f.peak_rss = std::max(f.peak_rss.value_or(0), *s.rss_bytes);
    if (s.cpu_pct) cpu += *s.cpu_pct, ++cpu_n;
    if (s.gpu_memory_bytes) {
      f.peak_gpu_memory = std::max(f.peak_gpu_memory.value_or(0), *s.gpu_memory_bytes);
    }
  }
  if (cpu_n > 0) f.mean_cpu_pct = cpu / cpu_n;
  return f;
}

}  // namespace

std::unique_ptr<ServerObservation> ServerObservation::for_target(const TargetSpec& target) {
  if (target.type != "openai") return nullptr;
  ServerSamplerOptions o;
  o.url = parse_http_url(target.url);
  o.access = target_access(target);
  const ServerMetricsSpec& m = target.server_metrics;
  o.scrape = m.scrape;
  o.metrics_path = m.path;
  o.dialect = m.dialect;
  o.interval = std::chrono::milliseconds(m.interval_ms);
  return std::unique_ptr<ServerObservation>(new ServerObservation(target, std::move(o)));
}

ServerObservation::ServerObservation(const TargetSpec& target, ServerSamplerOptions options)
    : target_(target), options_(std::move(options)) {}

void ServerObservation::start() {
  const int pid = target_.server_metrics.pid;
  if (pid > 0) {
    const bool alive = std::filesystem::exists("/proc/" + std::to_string(pid));
    if (alive) options_.pid = pid;
    process_detail_ = alive ? "server_metrics.pid" : "no process " + std::to_string(pid);
  } else if (is_loopback_host(options_.url.host)) {
    const PidLookup found = find_listening_pid(options_.url.port);
    options_.pid = found.pid;
    process_detail_ = found.detail;
  } else {
    process_detail_ = "the server is not on this host (" + options_.url.host + " is not loopback)";
  }
  transport_ =
      probe_transport(options_.url, "/health", options_.access, kProbeRoundTrips, kProbeTimeoutS);
  if (transport_.round_trips == 0 && options_.scrape) {
    transport_ = probe_transport(options_.url, options_.metrics_path, options_.access,
                                 kProbeRoundTrips, kProbeTimeoutS);
  }
  sampler_ = std::make_unique<ServerSampler>(options_, &nvml_);
  sampler_->start();
}

void ServerObservation::stop() {
  if (sampler_) sampler_->stop();
}

ServerMetricsRecord ServerObservation::metrics_record() const {
  const ScrapeStatus status = sampler_->status();
  const std::optional<ServerReading> first = sampler_->first_reading();
  const std::optional<ServerReading> last = sampler_->last_reading();
  const auto histogram = [](const std::optional<ServerReading>& r, bool ttft) {
    return r ? (ttft ? r->ttft : r->itl) : std::nullopt;
  };
  ServerMetricsRecord m;
  m.url = options_.url.text() + options_.metrics_path;
  m.scraped = options_.scrape;
  m.available = status.available;
  if (!status.available) m.unavailable_reason = text_or_null(status.unavailable_reason);
  m.dialect = text_or_null(status.dialect);
  m.interval_ms = options_.interval.count();
  m.scrapes = status.scrapes;
  m.failed_scrapes = status.failures;
  m.first_failure = text_or_null(status.first_failure);
  m.ttft_ms = latency(histogram(first, true), histogram(last, true));
  m.itl_ms = latency(histogram(first, false), histogram(last, false));
  return m;
}

ServerProcessRecord ServerObservation::process_record(
    const std::vector<ServerSample>& samples) const {
  const ProcessFigures p = process_figures(samples);
  ServerProcessRecord r;
  if (options_.pid) {
    r.pid = *options_.pid;
    r.found_by = process_detail_;
  }
  if (!(options_.pid && p.peak_rss)) {
    r.unavailable_reason = options_.pid ? "the process could not be read" : process_detail_;
  }
  r.peak_rss_bytes = p.peak_rss;
  r.cpu_pct_mean = p.mean_cpu_pct;
  r.cpu_time_source = "/proc/PID/stat utime + stime, clock ticks of 1/" +
                      std::to_string(int(clock_ticks_per_second())) + " s";
  r.peak_gpu_memory_bytes = p.peak_gpu_memory;
  return r;
}

// The server's process describes the summary's memory and CPU when it was read.
void ServerObservation::describe_server(RunSummary& summary, const ServerProcessRecord& p) const {
  summary.peak_memory_bytes = *p.peak_rss_bytes;
  summary.cpu_utilization_pct = p.cpu_pct_mean.value_or(0);
  const double cores = double(std::max(1u, std::thread::hardware_concurrency()));
  if (!nvml_.available()) summary.utilization_pct = summary.cpu_utilization_pct / cores;
  if (nvml_.available() && p.peak_gpu_memory_bytes) {
    summary.peak_gpu_memory_bytes = p.peak_gpu_memory_bytes;
  }
}

std::optional<TtftCrossCheck> ServerObservation::cross_check(
    const std::optional<ServerLatency>& ttft, const std::vector<RequestRecord>& records) const {
  if (!ttft || !ttft->mean || transport_.round_trips <= 0) return std::nullopt;
  const auto [client_mean, client_n] = client_ttft_from_send(records);
  return cross_check_ttft(client_mean, client_n, *ttft->mean, ttft->count, transport_.rtt_p95_ms);
}

std::optional<ServerSideRecord> ServerObservation::finish(RunSummary& summary,
                                                          const std::vector<RequestRecord>& records,
                                                          int64_t origin_ns) const {
  if (!sampler_) return std::nullopt;
  const std::vector<ServerSample> samples = sampler_->samples();
  ServerSideRecord r;
  r.metrics = metrics_record();
  r.process = process_record(samples);
  const bool have_process = options_.pid && r.process.peak_rss_bytes;
  r.resource_source = have_process ? "server pid " + std::to_string(*options_.pid) : "harness";
  if (have_process) describe_server(summary, r.process);
  r.transport = transport_record(transport_);
  r.ttft_cross_check = cross_check(r.metrics.ttft_ms, records);
  r.timeline = timeline(samples, origin_ns);
  return r;
}

}  // namespace infergate
