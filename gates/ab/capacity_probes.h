// `infergate ab` on a capacity search (docs/gates.md, "Capacity at the SLO"): bisecting on each
// run would spend most of a pair on probes far from the boundary, and the two sides' probes would
// differ. So the baseline searches once, and every run of every pair then probes the same fixed
// loads around the baseline's capacity (load.search.at), where a change moves the SLO ratio
// most; each run's capacity is placed between them and the pairs are judged on it.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "gates/ab/ab_session.h"

namespace infergate {

// The loads the pairs probe, relative to the baseline's capacity: wide enough that a change of
// +-20% stays within them or within the 1.5x they may be extrapolated by.
inline constexpr double kCapacityProbeFactors[] = {0.8, 1.0, 1.25};

class CapacityProbeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct CapacityProbePlan {
  std::string search_set;   // "load.search={...}" for both sides
  std::string description;  // the baseline's verdict and the loads chosen
};

// For a workload whose load.search bisects (the caller parsed it): runs the baseline's search
// once (`out_dir`/runs/baseline-search.json, stopped after `time_limit_s`, 0: none) and plans
// the fixed loads; throws CapacityProbeError when the baseline found no capacity (0, not
// bracketed, every request failed).
CapacityProbePlan plan_capacity_probes(const AbSettings& settings, double time_limit_s);

}  // namespace infergate
