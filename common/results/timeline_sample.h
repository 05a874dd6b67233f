// One sample of a repetition's `timeline` (docs/results-schema.md): when it was taken, the
// process's memory and CPU and the GPUs' (absent in simulated runs, whose clock is virtual), and
// the target's statistics at that moment. The report's memory, utilization and replica charts
// and diagnose's KV and batch peaks read it.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/section_reader.h"
#include "common/results/target_stats.h"

namespace infergate {

struct TimelineSample {
  double t_ms = 0;  // since the repetition's start
  std::optional<double> rss_bytes, cpu_pct;
  std::optional<double> gpu_memory_bytes, gpu_utilization_pct;
  std::optional<TargetStats> target;  // "engine"
  std::string target_error;           // "engine.enrich_error": why the target gave none
};

nlohmann::json timeline_to_json(const std::vector<TimelineSample>& samples);
std::vector<TimelineSample> read_timeline(const SectionReader& r);

}  // namespace infergate
