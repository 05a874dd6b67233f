// The energy a run used, over a window from start() to stop(): CPU package energy from powercap
// (RAPL) and GPU energy from NVML's cumulative counters. Both are machine figures (every package,
// every GPU NVML lists, whatever runs on them), not the process's share. Where the machine does
// not expose a counter (most VMs: no RAPL; no GPU, or one before Volta) the reading says why
// instead of giving a figure: a figure is never estimated.
//
//   EnergyMeter meter(PowercapEnergy::kDefaultRoot, &sampler.nvml());
//   meter.start();  ... run (poll() now and then) ...  EnergyReading energy = meter.stop();
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bench/telemetry/nvml.h"
#include "bench/telemetry/powercap_energy.h"

namespace infergate {

struct EnergyReading {
  // Exactly one of each pair is set: the figure, or why there is none.
  std::optional<double> cpu_joules;  // summed over the CPU packages
  std::optional<double> gpu_joules;  // summed over NVML's GPUs
  std::string cpu_unavailable;
  std::string gpu_unavailable;
  int cpu_zones = 0;   // RAPL package zones summed (0 when cpu_joules is absent)
  int gpus = 0;        // GPUs summed (0 when gpu_joules is absent)
  double seconds = 0;  // the window's length
};

class EnergyMeter {
 public:
  // Opens powercap under `powercap_root` now. `nvml` (may be null: "NVML not loaded") must
  // outlive the meter; the ResourceSampler's serves.
  explicit EnergyMeter(const std::string& powercap_root = PowercapEnergy::kDefaultRoot,
                       const Nvml* nvml = nullptr);
  EnergyMeter(const EnergyMeter&) = delete;
  EnergyMeter& operator=(const EnergyMeter&) = delete;

  // Opens a window: snapshots every counter (start() again discards the open window).
  void start();
  // Folds the CPU counters' progress into the window so far. A RAPL counter wraps every few
  // minutes to an hour under load and start-to-stop alone survives one wrap, so a long run
  // should poll every minute or so (the ResourceSampler's thread may). Thread-safe.
  void poll();
  // Closes the window. Throws std::logic_error without a start().
  EnergyReading stop();

 private:
  void poll_cpu();  // with mu_ held
  void start_gpu();
  void stop_gpu(EnergyReading* reading) const;

  const Nvml* const nvml_;
  std::optional<PowercapEnergy> powercap_;
  std::string powercap_reason_;  // why powercap_ is absent

  std::mutex mu_;
  bool started_ = false;
  int64_t start_ns_ = 0;
  // CPU: the last counters read, and the microjoules folded in so far.
  std::optional<std::vector<uint64_t>> cpu_last_uj_;
  uint64_t cpu_uj_ = 0;
  std::string cpu_reason_;  // why the open window has no CPU figure
  // GPU: each GPU's counter at start(), in joules.
  std::vector<double> gpu_start_joules_;
  std::string gpu_reason_;  // why the open window has no GPU figure
};

}  // namespace infergate
