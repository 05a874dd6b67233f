// The load driver in virtual time, for simulated targets (docs/simulator.md): the same open and
// closed loops as run_load() (load_driver.h), the same latency anchoring at scheduled times,
// but one thread moves the simulated workers (simulated_cluster.h) from event to event, and
// requests are sent exactly at their scheduled virtual times (a worker in a step queues them
// until its step ends, as the engine service does). Nothing depends on the wall clock, so the
// same inputs give bit-identical records.
#pragma once

#include <functional>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/driver/load_driver.h"
#include "bench/driver/simulated_cluster.h"

namespace infergate {

struct SimulatedLoadOptions {
  DriverOptions driver;
  SamplingSpec sampling;
  int64_t sample_interval_ns = 100'000'000;
  // Called at every sample time of virtual time, with the workers between events.
  std::function<void(int64_t now_ns, const SimulatedCluster& cluster)> on_sample;
};

// Throws std::logic_error when the workers stop making progress with requests in flight (a
// simulation bug, never a hang).
DriverResult run_simulated_load(SimulatedCluster& cluster,
                                const std::vector<BenchRequest>& requests,
                                const SimulatedLoadOptions& options);

}  // namespace infergate
