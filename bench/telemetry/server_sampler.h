// The server's side of an HTTP run, sampled on a thread of its own beside the harness's
// ResourceSampler: its Prometheus /metrics (read through a dialect, metrics_dialect.h) and,
// when it runs on this host, its process (memory, CPU, GPU memory by pid). start() scrapes once
// before returning and stop() once more after the load, so the first and last readings bracket
// every request the run sent: their histogram difference is the server's view of the run.
//
//   ServerSampler s(options, &nvml);
//   s.start();  ... run the load ...  s.stop();
//   histogram_delta(*s.last_reading()->ttft, *s.first_reading()->ttft);
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/telemetry/metrics_dialect.h"
#include "bench/telemetry/nvml.h"
#include "common/http/http_access.h"
#include "common/http/http_url.h"

namespace infergate {

struct ServerSamplerOptions {
  HttpUrl url;  // the server's root
  HttpAccess access;
  bool scrape = true;
  std::string metrics_path = "/metrics";
  std::string dialect = "auto";  // or a name metrics_dialects() knows
  std::chrono::milliseconds interval{500};
  std::optional<int> pid;  // the server's process, when on this host
  PrometheusLimits limits;
};

struct ServerSample {
  int64_t time_ns = 0;  // monotonic clock, as request times
  // From /metrics; absent when the server does not expose the figure.
  std::optional<double> running, waiting, kv_usage, preemptions;
  std::optional<double> prefix_cache_hit_rate;  // hits / queries since the previous scrape
  // From the process; absent without one.
  std::optional<double> rss_bytes, cpu_pct, gpu_memory_bytes;
};

// What became of the scrapes.
struct ScrapeStatus {
  bool available = false;  // at least one scrape was read through a dialect
  std::string unavailable_reason;
  std::string dialect;  // the one used ("" before any scrape succeeded)
  int64_t scrapes = 0, failures = 0;
  std::string first_failure;
};

class ServerSampler {
 public:
  // `nvml` (may be null) must outlive the sampler.
  ServerSampler(ServerSamplerOptions options, const Nvml* nvml);
  ~ServerSampler();  // stops
  ServerSampler(const ServerSampler&) = delete;
  ServerSampler& operator=(const ServerSampler&) = delete;

  void start();
  // Idempotent. Never hangs: the thread is woken at once, a scrape in flight ends within
  // scrape_timeout_s(), and the last scrape has the same timeout.
  void stop();

  std::vector<ServerSample> samples() const;
  ScrapeStatus status() const;
  // The first and the last scrape read through the dialect.
  std::optional<ServerReading> first_reading() const;
  std::optional<ServerReading> last_reading() const;
  const ServerSamplerOptions& options() const { return options_; }
  // max(2 s, min(5 s, interval)): a busy server answers /metrics late (a Python server under
  // load took over a second), which costs a skipped tick, never a failed scrape or a pile-up.
  double scrape_timeout_s() const;

 private:
  void run();
  void take_sample();
  // One scrape read through the dialect; nullopt (and the failure recorded) otherwise.
  std::optional<ServerReading> scrape();
  void add_process_figures(ServerSample& sample);

  const ServerSamplerOptions options_;
  const Nvml* const nvml_;

  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<ServerSample> samples_;
  ScrapeStatus status_;
  bool scraping_ = false;  // false once the server said it has no /metrics
  const MetricsDialect* dialect_ = nullptr;
  std::optional<ServerReading> first_, last_;
  std::thread thread_;

  // Sampling-thread state (and start()'s and stop()'s around it).
  int64_t last_time_ns_ = 0;
  std::optional<int64_t> last_cpu_ticks_;
};

}  // namespace infergate
