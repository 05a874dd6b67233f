// Samples the process's memory and CPU, and the GPUs through NVML when present, on a background
// thread during a run, so a result can show what the run cost and that the harness was not
// starved.
//
//   ResourceSampler sampler(std::chrono::milliseconds(100),
//                           [&](ResourceSample& s) { s.target = target.stats(); });
//   sampler.start();  ... run ...  sampler.stop();
//   for (const ResourceSample& s : sampler.samples()) ...
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "bench/telemetry/nvml.h"
#include "bench/telemetry/resource_sample.h"

namespace infergate {

class ResourceSampler {
 public:
  using Enrich = std::function<void(ResourceSample&)>;

  // `enrich` runs on the sampling thread, once per sample, after the built-in fields are set:
  // it must be thread-safe with respect to what it reads. NVML is loaded here (unavailable on a
  // machine without a GPU: the gpu fields then stay empty).
  explicit ResourceSampler(std::chrono::milliseconds interval, Enrich enrich = {});
  ~ResourceSampler();  // stops
  ResourceSampler(const ResourceSampler&) = delete;
  ResourceSampler& operator=(const ResourceSampler&) = delete;

  // start() forgets earlier samples; samples come every `interval` (a late tick is skipped, not
  // bunched), plus a last one at stop() covering the partial interval. CPU% of a sample covers
  // the time since the one before (or since start()). stop() is idempotent.
  void start();
  void stop();

  std::vector<ResourceSample> samples() const;
  // The largest sampled RSS (0 before any sample); spikes shorter than the interval are missed.
  double peak_rss_bytes() const;
  // The largest sampled GPU memory in use (summed over NVML's GPUs); nullopt when no sample had
  // a GPU reading (no NVML, no GPU).
  std::optional<double> peak_gpu_memory_bytes() const;
  const Nvml& nvml() const { return *nvml_; }

 private:
  void run();
  void take_sample();

  const std::chrono::milliseconds interval_;
  const Enrich enrich_;
  const std::unique_ptr<Nvml> nvml_;

  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::vector<ResourceSample> samples_;
  std::thread thread_;

  // Sampling-thread state (and stop()'s, after the join).
  int64_t last_time_ns_ = 0;
  double last_cpu_seconds_ = 0;
};

}  // namespace infergate
