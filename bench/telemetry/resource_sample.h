// One reading of what the benchmark process and the GPUs were using. Written to results files
// (docs/results-schema.md, "Telemetry and manifest").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace infergate {

struct ResourceSample {
  int64_t time_ns = 0;   // common/util/clock.h
  double rss_bytes = 0;  // resident set size of the process
  double cpu_pct = 0;    // process CPU since the previous sample; 100 = one core busy
  std::optional<double> gpu_memory_bytes;     // in use, summed over NVML's GPUs
  std::optional<double> gpu_utilization_pct;  // mean over the GPUs that report it
  nlohmann::json extra;  // filled by the sampler's enrich callback (engine stats)
};

// {"time_ns", "rss_bytes", "cpu_pct", "gpu_memory_bytes", "gpu_utilization_pct", "extra"};
// absent GPU readings are null, an empty extra is {}.
nlohmann::json to_json(const ResourceSample& sample);

}  // namespace infergate
