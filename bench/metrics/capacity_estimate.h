// From a capacity search's probes to its answer (docs/metrics.md, "Capacity at the SLO"): the
// probes pooled by load, the bracket (highest load that held below the lowest that did not),
// the capacity placed inside it from the probes' SLO ratios, and the cliffs between loads.
#pragma once

#include <optional>
#include <vector>

#include "common/results/search_record.h"

namespace infergate {

// Every probe at one load, pooled: a re-probe's requests count with the first probe's.
struct LoadVerdict {
  double load = 0;
  int probes = 0;
  int64_t requests = 0;
  double good_fraction = 0;  // pooled: good requests over requests
  bool meets = false;        // good_fraction >= the search's goodput share
  // The SLO ratio at the share over the pooled requests (null: too many failed): <= 1 exactly
  // when `meets`.
  std::optional<double> slo_ratio;
  double ttft_p99_ms = 0;  // the mean of the probes' TTFT P99
};

// Ascending by load. `ratios[i]` are probe i's requests' SLO ratios (measured_slo_ratios).
std::vector<LoadVerdict> pooled_by_load(const std::vector<SearchProbeRecord>& probes,
                                        const std::vector<std::vector<double>>& ratios,
                                        double goodput_share);

// high: the lowest load that missed; low: the highest load below it that held. `monotonic` is
// false when some load above `high` held (noise, or a target that recovers under more load).
struct LoadBracket {
  std::optional<double> low, high;
  bool monotonic = true;
};
LoadBracket bracket_of(const std::vector<LoadVerdict>& loads);

// Where the SLO ratio crosses 1 between `low` (held) and `high` (missed), linear in log ratio
// over log load; low's load when a ratio is missing. Users (closed loops) are whole: low's.
double capacity_between(const LoadVerdict& low, const LoadVerdict& high, bool users);

// The capacity from fixed loads (load.search.at): between the first adjacent pair that held and
// missed; past the ends by extrapolating the two nearest loads' ratios, at most 1.5x beyond the
// loads probed (else nullopt: too far from what was measured to say).
std::optional<double> capacity_from_fixed_loads(const std::vector<LoadVerdict>& loads, bool users);

// Adjacent loads whose TTFT P99 rose `factor` times faster than the load: x3 for 1.1x more
// load is a cliff, x6 for 6x more is a queue growing as it should.
std::vector<SearchCliffRecord> find_cliffs(const std::vector<LoadVerdict>& loads, double factor);

}  // namespace infergate
