// Sends a dataset's requests to a target on the workload's schedule and records what happened
// to each. Open loop: request i is *scheduled* at t0 + offset_i whatever the target is doing;
// closed loop: each of N users schedules its next request the moment its previous one ends;
// a ramp raises the rate or the users stage by stage (bench/load/ramp_schedule.h).
// Latency is measured from the scheduled time, so a slow target cannot slow the clock down
// (no coordinated omission). The same loops run on the wall clock for real targets and in
// virtual time for simulated ones (bench/load/load_clock.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/dataset/session_dataset.h"
#include "bench/load/load_clock.h"
#include "bench/metrics/driver_result.h"
#include "bench/targets/target.h"
#include "bench/workload/workload.h"

namespace infergate {

struct DriverProgress {
  int64_t done = 0;   // finished requests (including warm-up)
  int64_t total = 0;  // requests planned (0: unknown, duration-bound)
  int64_t elapsed_ns = 0;
  double recent_ttft_ms = 0;  // mean TTFT of the latest report period with first tokens
};

struct DriverOptions {
  LoadSpec load;
  uint64_t seed = 0;                                       // arrival process
  std::atomic<bool>* stop = nullptr;                       // set (e.g. by Ctrl-C) to end early
  std::function<void(const DriverProgress&)> on_progress;  // called about every 100 ms
  // load.mode "sessions": the conversations the users hold (session_dataset.h); the requests
  // are then built turn by turn from them and the answers.
  const std::vector<BenchSession>* sessions = nullptr;
  // One of `ranks` load ranks (load_ranks.h): this one sends request i of the global schedule
  // when i % ranks == rank; closed loops and sessions split their users (and sessions) so, and
  // number their requests k x ranks + rank. start_ns: the agreed start on this rank's clock
  // (0: a millisecond from now).
  int rank = 0;
  int ranks = 1;
  int64_t start_ns = 0;
};

// `requests` is cycled if the plan needs more (unused with sessions). Warm-up requests come first.
// On the wall clock (a real target).
DriverResult run_load(Target& target, const std::vector<BenchRequest>& requests,
                      const DriverOptions& options);
// On `clock`: a simulated target's virtual clock runs the same loops in virtual time
// (sim/cluster/virtual_load_clock.h).
DriverResult run_load(Target& target, LoadClock& clock, const std::vector<BenchRequest>& requests,
                      const DriverOptions& options);

}  // namespace infergate
