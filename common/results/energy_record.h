// The `energy` object of a results file's repetition (docs/results-schema.md, "Energy";
// definitions in docs/metrics.md, "Energy"): the joules the machine's CPU packages (RAPL) and
// GPUs (NVML) used over the repetition, each a figure or the reason there is none, with its one
// writer and its one reader. bench/telemetry/energy_meter.h measures it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/results/section_reader.h"

namespace infergate {

struct EnergyRecord {
  // Exactly one of each pair: the figure, or why there is none ("" when there is a figure).
  std::optional<double> cpu_joules, gpu_joules;
  std::string cpu_unavailable, gpu_unavailable;
  int cpu_zones = 0, gpus = 0;  // RAPL package zones and GPUs summed
  double seconds = 0;           // the window measured: the whole repetition, warm-up included
  // The requests and output tokens completed in that window (warm-up included): the per-token
  // and per-request figures divide the joules by these.
  int64_t requests = 0, output_tokens = 0;

  std::optional<double> joules() const;  // CPU + GPU, over those measured; null with neither
};

nlohmann::json to_json(const EnergyRecord& energy);
// `r` is the "energy" object; a bad member throws ResultsError naming its path (a figure beside
// a reason, or neither, is refused).
EnergyRecord read_energy_record(const SectionReader& r);

}  // namespace infergate
