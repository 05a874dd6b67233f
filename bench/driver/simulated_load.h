// The load driver in virtual time, for simulated targets (docs/simulator.md): the same open and
// closed loops as run_load() (load_driver.h), the same latency anchoring at scheduled times,
// but one thread steps the real engine whose simulated executor advances the clock, and
// requests arrive between steps exactly at their scheduled virtual times. Nothing depends on
// the wall clock, so the same inputs give bit-identical records.
#pragma once

#include <functional>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/driver/load_driver.h"
#include "engine/core/engine.h"
#include "sim/virtual_clock.h"

namespace infergate {

struct SimulatedLoadOptions {
  DriverOptions driver;
  SamplingSpec sampling;
  int64_t sample_interval_ns = 100'000'000;
  // Called at every sample time of virtual time, with the engine between steps.
  std::function<void(int64_t now_ns, const Engine& engine)> on_sample;
};

// Throws std::logic_error when the engine stops making progress with requests in flight (a
// simulation bug, never a hang).
DriverResult run_simulated_load(Engine& engine, VirtualClock& clock,
                                const std::vector<BenchRequest>& requests,
                                const SimulatedLoadOptions& options);

}  // namespace infergate
