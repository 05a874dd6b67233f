// A capacity search (load.search; docs/metrics.md, "Capacity at the SLO"): probes at loads
// chosen one after the other, each a fresh target measured like a repetition, bisecting [from,
// to] geometrically (users: halving) until the bracket is within the precision asked, then
// re-probing both ends of the bracket with other arrivals and going on if the pooled verdict
// moved. With load.search.at the loads are given and the capacity is placed between them.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <ostream>

#include "bench/metrics/probe_figures.h"
#include "bench/workload/workload.h"
#include "common/results/results_file.h"

namespace infergate {

struct ProbeRun {
  RepetitionResult repetition;
  ProbeFigures figures;
};

// One probe at `load` (requests/s or users), its arrivals seeded `seed`; `index` from 0.
using ProbeFunction = std::function<ProbeRun(double load, uint64_t seed, int index)>;

struct CapacitySearchSettings {
  CapacitySearchSpec spec;
  LoadMode mode = LoadMode::kOpen;
  SloSpec slo;
  uint64_t seed = 0;  // first probes at every load; a re-probe adds how many ran there before
  const std::atomic<bool>* stop = nullptr;
  std::ostream* log = nullptr;  // a line per probe; null: silent
};

// The repetition of the probe the search's summary is of (the bracket's low end), its summary
// with capacity_at_slo (and _low, _high) added and its `search` section filled; marked
// incomplete when stopped early.
RepetitionResult run_capacity_search(const CapacitySearchSettings& settings,
                                     const ProbeFunction& probe, int repetition_index);

// "search: VERDICT" and a line per cliff: what a user reads even with --quiet.
void print_search_verdict(std::ostream& out, const SearchRecord& search);

// "TTFT <= 500 ms, TPOT <= 50 ms for 95% of requests".
std::string describe_slo_target(const SloSpec& slo, double goodput_share);

}  // namespace infergate
