// One repetition of a simulated target (docs/simulator.md): fresh workers on fresh virtual
// clocks (one engine, or `router`'s replicas and prefill workers when the target has a router),
// the workload's load by the one load driver in virtual time (sessions and ramps too), and the same
// summary, engine statistics, router record, timeline and request records a real repetition writes.
// Memory and utilization describe the simulated devices (their ledgers summed, and the share of the
// run they spent in steps), not this process.
#pragma once

#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/dataset/session_dataset.h"
#include "bench/driver/run_workload.h"
#include "bench/metrics/probe_figures.h"
#include "bench/workload/workload.h"
#include "common/results/results_file.h"
#include "sim/cluster/simulated_deployment.h"

namespace infergate {

RepetitionResult run_simulated_repetition(const Workload& w, const SimulatedDeployment& deployment,
                                          const std::vector<BenchRequest>& dataset,
                                          const std::vector<BenchSession>* sessions,
                                          const LoadSpec& load, const RouterTargetSpec& router,
                                          const EngineConfig& engine, int repetition,
                                          const RunOptions& options, ProbeFigures* probe = nullptr);

}  // namespace infergate
