#include "bench/telemetry/server_sampler.h"

#include <algorithm>
#include <exception>

#include "bench/http/http_get_json.h"
#include "bench/telemetry/listening_process.h"
#include "common/util/clock.h"

namespace infergate {

namespace {

// The server answered that it has no such page: asking again every tick would only repeat it.
bool is_client_error_status(const std::string& message) {
  return message.find(": HTTP 4") != std::string::npos;
}

std::optional<double> interval_hit_rate(const ServerReading& now,
                                        const std::optional<ServerReading>& before) {
  if (now.prefix_hit_rate) return now.prefix_hit_rate;
  if (!before || !now.prefix_queries || !now.prefix_hits || !before->prefix_queries ||
      !before->prefix_hits) {
    return std::nullopt;
  }
  const double queries = *now.prefix_queries - *before->prefix_queries;
  if (queries <= 0) return std::nullopt;
  return std::clamp((*now.prefix_hits - *before->prefix_hits) / queries, 0.0, 1.0);
}

}  // namespace

ServerSampler::ServerSampler(ServerSamplerOptions options, const Nvml* nvml)
    : options_(std::move(options)), nvml_(nvml) {}

ServerSampler::~ServerSampler() { stop(); }

double ServerSampler::scrape_timeout_s() const {
  return std::max(2.0, std::min(5.0, double(options_.interval.count()) * 1e-3));
}

void ServerSampler::start() {
  stop();
  {
    std::lock_guard<std::mutex> lock(mu_);
    samples_.clear();
    status_ = ScrapeStatus{};
    scraping_ = options_.scrape;
    if (!options_.scrape) status_.unavailable_reason = "not scraped (server_metrics.scrape false)";
    dialect_ = options_.dialect == "auto" ? nullptr : find_metrics_dialect(options_.dialect);
    first_.reset();
    last_.reset();
    stopping_ = false;
  }
  last_time_ns_ = now_ns();
  last_cpu_ticks_.reset();
  take_sample();  // before the first request: the baseline of every counter
  thread_ = std::thread(&ServerSampler::run, this);
}

void ServerSampler::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  take_sample();  // after the last answer: the end of the run's window
}

void ServerSampler::run() {
  auto next = Clock::now() + options_.interval;
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
    lock.unlock();
    take_sample();
    lock.lock();
    next += options_.interval;
    const auto now = Clock::now();
    if (next <= now) next = now + options_.interval;  // a slow scrape: skip ticks
  }
}

std::optional<ServerReading> ServerSampler::scrape() {
  const std::string url = options_.url.text() + options_.metrics_path;
  std::string failure;
  try {
    const std::string body = http_get_text(options_.url, options_.metrics_path, options_.access,
                                           scrape_timeout_s(), options_.limits.max_body_bytes);
    const std::vector<PrometheusSample> samples = parse_prometheus_text(body, url, options_.limits);
    std::lock_guard<std::mutex> lock(mu_);
    ++status_.scrapes;
    if (dialect_ == nullptr) dialect_ = detect_metrics_dialect(samples);
    if (dialect_ == nullptr) {
      scraping_ = false;
      status_.unavailable_reason = url + " has none of the metric names known (prefixes " +
                                   "infergate:, vllm:, sglang:, llamacpp:)";
      return std::nullopt;
    }
    status_.dialect = dialect_->name;
    status_.available = true;
    return read_server_metrics(samples, *dialect_);
  } catch (const std::exception& e) {
    failure = e.what();
  }
  std::lock_guard<std::mutex> lock(mu_);
  ++status_.scrapes;
  ++status_.failures;
  if (status_.first_failure.empty()) status_.first_failure = failure;
  if (is_client_error_status(failure) && !status_.available) {
    scraping_ = false;  // said once in the results, not once per sample
    status_.unavailable_reason = failure;
  }
  return std::nullopt;
}

void ServerSampler::add_process_figures(ServerSample& sample) {
  if (!options_.pid) return;
  const std::optional<ProcessReading> p = read_process(*options_.pid);
  if (!p) return;  // gone (the server exited): the sample says nothing of it
  sample.rss_bytes = p->rss_bytes;
  const double wall_s = double(sample.time_ns - last_time_ns_) * 1e-9;
  if (last_cpu_ticks_ && wall_s > 0) {
    sample.cpu_pct =
        100.0 * double(p->cpu_ticks - *last_cpu_ticks_) / clock_ticks_per_second() / wall_s;
  }
  last_cpu_ticks_ = p->cpu_ticks;
  last_time_ns_ = sample.time_ns;
  if (nvml_ != nullptr) sample.gpu_memory_bytes = nvml_->process_gpu_memory_bytes(*options_.pid);
}

void ServerSampler::take_sample() {
  bool scraping = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    scraping = scraping_;
  }
  ServerSample sample;
  std::optional<ServerReading> reading;
  if (scraping) reading = scrape();
  sample.time_ns = now_ns();
  add_process_figures(sample);
  std::lock_guard<std::mutex> lock(mu_);
  if (reading) {
    sample.running = reading->running;
    sample.waiting = reading->waiting;
    sample.kv_usage = reading->kv_usage;
    sample.preemptions = reading->preemptions;
    sample.prefix_cache_hit_rate = interval_hit_rate(*reading, last_);
    if (!first_) first_ = reading;
    last_ = reading;
  }
  samples_.push_back(std::move(sample));
}

std::vector<ServerSample> ServerSampler::samples() const {
  std::lock_guard<std::mutex> lock(mu_);
  return samples_;
}

ScrapeStatus ServerSampler::status() const {
  std::lock_guard<std::mutex> lock(mu_);
  ScrapeStatus s = status_;
  if (options_.scrape && !s.available && s.unavailable_reason.empty()) {
    s.unavailable_reason = s.first_failure.empty() ? "no scrape succeeded" : s.first_failure;
  }
  return s;
}

std::optional<ServerReading> ServerSampler::first_reading() const {
  std::lock_guard<std::mutex> lock(mu_);
  return first_;
}

std::optional<ServerReading> ServerSampler::last_reading() const {
  std::lock_guard<std::mutex> lock(mu_);
  return last_;
}

}  // namespace infergate
