// One reading of what the benchmark process and the GPUs were using, and the target's
// statistics at that moment; a repetition's timeline (common/results/timeline_sample.h) is these
// on the repetition's clock.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/results/target_stats.h"

namespace infergate {

struct ResourceSample {
  int64_t time_ns = 0;   // common/util/clock.h
  double rss_bytes = 0;  // resident set size of the process
  double cpu_pct = 0;    // process CPU since the previous sample; 100 = one core busy
  std::optional<double> gpu_memory_bytes;     // in use, summed over NVML's GPUs
  std::optional<double> gpu_utilization_pct;  // mean over the GPUs that report it
  std::optional<TargetStats> target;          // filled by the sampler's enrich callback
  std::string target_error;                   // why the enrich callback threw
};

}  // namespace infergate
