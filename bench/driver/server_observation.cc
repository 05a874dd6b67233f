#include "bench/driver/server_observation.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "bench/metrics/ttft_cross_check.h"
#include "bench/telemetry/listening_process.h"

namespace infergate {

namespace {

constexpr int kProbeRoundTrips = 20;
constexpr double kProbeTimeoutS = 2;

nlohmann::json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json text_or_null(const std::string& text) {
  return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);
}

// The server's own latency over the run: the histogram's change from the first scrape to the
// last, in milliseconds; null when the server has no such histogram.
nlohmann::json latency_json(const std::optional<HistogramSnapshot>& first,
                            const std::optional<HistogramSnapshot>& last) {
  if (!last) return nullptr;
  const HistogramSnapshot d = first ? histogram_delta(*last, *first) : *last;
  const auto in_ms = [](std::optional<double> seconds) {
    return seconds ? nlohmann::json(*seconds * 1e3) : nlohmann::json(nullptr);
  };
  return {{"count", int64_t(d.count)},
          {"mean", in_ms(histogram_mean(d))},
          {"p50", in_ms(histogram_quantile(0.50, d))},
          {"p95", in_ms(histogram_quantile(0.95, d))},
          {"p99", in_ms(histogram_quantile(0.99, d))}};
}

nlohmann::json timeline_json(const std::vector<ServerSample>& samples, int64_t origin_ns) {
  nlohmann::json out = nlohmann::json::array();
  for (const ServerSample& s : samples) {
    nlohmann::json j = {{"t_ms", double(s.time_ns - origin_ns) * 1e-6}};
    const std::pair<const char*, const std::optional<double>*> fields[] = {
        {"running", &s.running},
        {"waiting", &s.waiting},
        {"kv_usage", &s.kv_usage},
        {"preemptions", &s.preemptions},
        {"prefix_cache_hit_rate", &s.prefix_cache_hit_rate},
        {"rss_bytes", &s.rss_bytes},
        {"cpu_pct", &s.cpu_pct},
        {"gpu_memory_bytes", &s.gpu_memory_bytes}};
    for (const auto& [key, value] : fields) {
      if (*value) j[key] = **value;
    }
    out.push_back(std::move(j));
  }
  return out;
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
  if (const char* key = std::getenv("OPENAI_API_KEY")) o.api_key = key;
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
      probe_transport(options_.url, "/health", options_.api_key, kProbeRoundTrips, kProbeTimeoutS);
  if (transport_.round_trips == 0 && options_.scrape) {
    transport_ = probe_transport(options_.url, options_.metrics_path, options_.api_key,
                                 kProbeRoundTrips, kProbeTimeoutS);
  }
  sampler_ = std::make_unique<ServerSampler>(options_, &nvml_);
  sampler_->start();
}

void ServerObservation::stop() {
  if (sampler_) sampler_->stop();
}

nlohmann::json ServerObservation::finish(RunSummary& summary,
                                         const std::vector<RequestRecord>& records,
                                         int64_t origin_ns) const {
  if (!sampler_) return nullptr;
  const std::vector<ServerSample> samples = sampler_->samples();
  const ScrapeStatus status = sampler_->status();
  const std::optional<ServerReading> first = sampler_->first_reading();
  const std::optional<ServerReading> last = sampler_->last_reading();
  const auto histogram = [](const std::optional<ServerReading>& r, bool ttft) {
    return r ? (ttft ? r->ttft : r->itl) : std::nullopt;
  };
  const nlohmann::json ttft = latency_json(histogram(first, true), histogram(last, true));
  nlohmann::json metrics = {
      {"url", options_.url.text() + options_.metrics_path},
      {"scraped", options_.scrape},
      {"available", status.available},
      {"unavailable_reason",
       status.available ? nlohmann::json(nullptr) : text_or_null(status.unavailable_reason)},
      {"dialect", text_or_null(status.dialect)},
      {"interval_ms", options_.interval.count()},
      {"scrapes", status.scrapes},
      {"failed_scrapes", status.failures},
      {"first_failure", text_or_null(status.first_failure)},
      {"ttft_ms", ttft},
      {"itl_ms", latency_json(histogram(first, false), histogram(last, false))}};

  const ProcessFigures p = process_figures(samples);
  const bool have_process = options_.pid && p.peak_rss;
  const std::string source =
      have_process ? "server pid " + std::to_string(*options_.pid) : "harness";
  nlohmann::json process = {
      {"pid", options_.pid ? nlohmann::json(*options_.pid) : nullptr},
      {"found_by", options_.pid ? nlohmann::json(process_detail_) : nullptr},
      {"unavailable_reason",
       have_process
           ? nlohmann::json(nullptr)
           : nlohmann::json(options_.pid ? "the process could not be read" : process_detail_)},
      {"peak_rss_bytes", optional_json(p.peak_rss)},
      {"cpu_pct_mean", optional_json(p.mean_cpu_pct)},
      {"cpu_time_source", "/proc/PID/stat utime + stime, clock ticks of 1/" +
                              std::to_string(int(clock_ticks_per_second())) + " s"},
      {"peak_gpu_memory_bytes", optional_json(p.peak_gpu_memory)}};
  if (have_process) {
    summary.peak_memory_bytes = *p.peak_rss;
    summary.cpu_utilization_pct = p.mean_cpu_pct.value_or(0);
    const double cores = double(std::max(1u, std::thread::hardware_concurrency()));
    if (!nvml_.available()) summary.utilization_pct = summary.cpu_utilization_pct / cores;
    if (nvml_.available() && p.peak_gpu_memory) summary.peak_gpu_memory_bytes = p.peak_gpu_memory;
  }

  nlohmann::json cross_check = nullptr;
  if (!ttft.is_null() && !ttft["mean"].is_null() && transport_.round_trips > 0) {
    const auto [client_mean, client_n] = client_ttft_from_send(records);
    const TtftCrossCheck c = cross_check_ttft(client_mean, client_n, ttft["mean"].get<double>(),
                                              ttft["count"].get<int64_t>(), transport_.rtt_p95_ms);
    cross_check = {{"client_mean_ms", c.client_mean_ms}, {"client_count", c.client_count},
                   {"server_mean_ms", c.server_mean_ms}, {"server_count", c.server_count},
                   {"difference_ms", c.difference_ms},   {"bound_ms", c.bound_ms},
                   {"disagreement", c.disagreement},     {"reason", c.reason}};
  }
  return {{"resource_source", source},
          {"metrics", metrics},
          {"process", process},
          {"transport",
           {{"path", transport_.path},
            {"round_trips", transport_.round_trips},
            {"rtt_p50_ms", transport_.rtt_p50_ms},
            {"rtt_p95_ms", transport_.rtt_p95_ms},
            {"failure", text_or_null(transport_.failure)}}},
          {"ttft_cross_check", cross_check},
          {"timeline", timeline_json(samples, origin_ns)}};
}

}  // namespace infergate
