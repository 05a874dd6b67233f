// A repetition's energy (docs/metrics.md, "Energy"): the meter's reading over the repetition
// with the requests and tokens completed in the same window, and the summary's joules per output
// token and per request from it.
#pragma once

#include <vector>

#include "bench/metrics/request_record.h"
#include "bench/telemetry/energy_meter.h"
#include "bench/workload/workload.h"
#include "common/results/energy_record.h"
#include "common/results/run_summary.h"

namespace infergate {

// Why this machine's energy is not the target's ("" when it is): an openai target on another
// host runs on other CPUs and GPUs than the ones this machine's counters see.
std::string energy_not_the_targets(const TargetSpec& target);

// `reading` with the completed requests and their output tokens among `records` (warm-up
// included: the meter's window covers the whole repetition).
EnergyRecord energy_record(const EnergyReading& reading, const std::vector<RequestRecord>& records);

// The record saying `why` for both sources.
EnergyRecord energy_unavailable(const std::string& why);

// energy_j_per_output_token and energy_j_per_request, when the record has joules and the
// window completed tokens (requests).
void add_energy(RunSummary& summary, const EnergyRecord& energy);

}  // namespace infergate
