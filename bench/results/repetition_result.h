// What a real and a simulated repetition both write: the engine's counters a run summary
// carries (prefix-cache hit rate, preemptions, speculation, engine CPU time) and the
// repetition's record of summary, errors, engine statistics and requests.
#pragma once

#include "bench/metrics/driver_result.h"
#include "common/results/results_file.h"
#include "common/results/run_summary.h"
#include "common/results/target_stats.h"

namespace infergate {

void add_engine_counters(RunSummary& summary, const TargetStats& target);

// The repetition's result without its timeline and CUPTI record (the caller's own); request
// records only when `record_requests`.
RepetitionResult make_repetition_result(int index, const DriverResult& run,
                                        const RunSummary& summary, const TargetStats& stats,
                                        bool record_requests);

}  // namespace infergate
