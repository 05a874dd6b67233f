// A simulated target's deployment: the model's shape on named hardware with a calibration,
// built into a real Engine whose executor is sim/'s SimulatedExecutor on a virtual clock
// (docs/simulator.md). Loaded once per run; each repetition gets a fresh engine and clock.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/workload/workload.h"
#include "engine/core/engine.h"
#include "sim/calibration.h"
#include "sim/hardware_spec.h"
#include "sim/model_shape.h"
#include "sim/virtual_clock.h"

namespace infergate {

class SimulatedDeployment {
 public:
  // Reads the model shape, hardware and calibration files; throws std::invalid_argument naming
  // the file and field, or an engine setting the simulator does not model yet.
  explicit SimulatedDeployment(const SimulatedTargetSpec& spec);

  // A fresh engine on `clock` with `config` (its parallel layout, dtypes and pool). Throws
  // std::invalid_argument when the layout does not fit the device ("bf16 weights: ...").
  // `busy_host_ranks`: on cpu hardware, where each step reads how many processes share the
  // host's cores then (the workers' ranks that are stepping; null: this engine's own ranks).
  std::unique_ptr<Engine> make_engine(const EngineConfig& config, VirtualClock& clock,
                                      const int* busy_host_ranks = nullptr) const;
  // The devices one engine of `config` spans (pipeline stages x the tensor or expert group).
  int devices(const EngineConfig& config) const;
  // One token's KV over the whole model (every layer's K and V, every KV head) in `config`'s
  // KV dtype: what a prefill worker hands a decode worker per prompt token.
  double kv_bytes_per_token(const EngineConfig& config) const;

  const ModelShape& shape() const { return shape_; }
  const HardwareSpec& hardware() const { return hardware_; }
  // What the manifest records: the model's source, the hardware, the calibration and its hash.
  nlohmann::json manifest() const;

 private:
  SimulatedTargetSpec spec_;
  ModelShape shape_;
  HardwareSpec hardware_;
  Calibration calibration_;
  std::string calibration_hash_;
};

}  // namespace infergate
