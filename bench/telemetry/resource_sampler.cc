#include "bench/telemetry/resource_sampler.h"

#include <algorithm>
#include <exception>

#include "bench/telemetry/process_stats.h"
#include "common/util/clock.h"

namespace infergate {
namespace {

constexpr int64_t kMinFinalSampleNs = 1'000'000;  // a last sample shorter than 1 ms is noise

void add_gpu_readings(const Nvml& nvml, ResourceSample* sample) {
  double memory = 0;
  double utilization = 0;
  int answered = 0;
  int with_utilization = 0;
  for (int i = 0; i < nvml.device_count(); ++i) {
    const std::optional<GpuReading> reading = nvml.read(i);
    if (!reading) continue;
    ++answered;
    memory += reading->memory_used_bytes;
    if (reading->utilization_pct) {
      utilization += *reading->utilization_pct;
      ++with_utilization;
    }
  }
  if (answered > 0) sample->gpu_memory_bytes = memory;
  if (with_utilization > 0) sample->gpu_utilization_pct = utilization / with_utilization;
}

}  // namespace

ResourceSampler::ResourceSampler(std::chrono::milliseconds interval, Enrich enrich)
    : interval_(std::max(interval, std::chrono::milliseconds(1))),
      enrich_(std::move(enrich)),
      nvml_(std::make_unique<Nvml>()) {}

ResourceSampler::~ResourceSampler() { stop(); }

void ResourceSampler::start() {
  stop();
  {
    std::lock_guard<std::mutex> lock(mu_);
    samples_.clear();
    stopping_ = false;
  }
  last_time_ns_ = now_ns();
  last_cpu_seconds_ = process_cpu_seconds();
  thread_ = std::thread(&ResourceSampler::run, this);
}

void ResourceSampler::stop() {
  if (!thread_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (now_ns() - last_time_ns_ >= kMinFinalSampleNs) take_sample();
}

void ResourceSampler::run() {
  auto next = Clock::now() + interval_;
  std::unique_lock<std::mutex> lock(mu_);
  while (!wake_.wait_until(lock, next, [this] { return stopping_; })) {
    lock.unlock();
    take_sample();
    lock.lock();
    next += interval_;
    const auto now = Clock::now();
    if (next <= now) next = now + interval_;  // fell behind: skip ticks rather than bunch them
  }
}

void ResourceSampler::take_sample() {
  ResourceSample sample;
  sample.time_ns = now_ns();
  sample.rss_bytes = process_rss_bytes();
  const double cpu_seconds = process_cpu_seconds();
  const double wall_seconds = static_cast<double>(sample.time_ns - last_time_ns_) * 1e-9;
  if (wall_seconds > 0) sample.cpu_pct = 100.0 * (cpu_seconds - last_cpu_seconds_) / wall_seconds;
  last_time_ns_ = sample.time_ns;
  last_cpu_seconds_ = cpu_seconds;
  if (nvml_->available()) add_gpu_readings(*nvml_, &sample);
  if (enrich_) {
    try {
      enrich_(sample);
    } catch (const std::exception& e) {  // a throw here would end the process
      sample.target_error = e.what();
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  samples_.push_back(std::move(sample));
}

std::vector<ResourceSample> ResourceSampler::samples() const {
  std::lock_guard<std::mutex> lock(mu_);
  return samples_;
}

double ResourceSampler::peak_rss_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  double peak = 0;
  for (const ResourceSample& s : samples_) peak = std::max(peak, s.rss_bytes);
  return peak;
}

std::optional<double> ResourceSampler::peak_gpu_memory_bytes() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::optional<double> peak;
  for (const ResourceSample& s : samples_) {
    if (s.gpu_memory_bytes) peak = std::max(peak.value_or(0), *s.gpu_memory_bytes);
  }
  return peak;
}

}  // namespace infergate
