// Which of a rule set's rules judge one sweep point of a workload: the one decision `compare`,
// `ab` and calibrate's replays (paired and unpaired) all make, so a replay counts exactly the
// rule evaluations the gate it stands for would make.
#pragma once

#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/rules/rule_set.h"

namespace infergate {

// The rules that apply to `workload` (their workload globs), less the quality rules whose
// metric neither side measured (a workload without a quality section is not judged by them).
// A capacity search's point (load.search) is judged by the capacity rules alone: its other
// figures are those of the probe at each side's own capacity, so they would compare loads, not
// builds; and the capacity rules judge nothing else.
std::vector<const GateRule*> judged_rules(const RuleSet& rules, const std::string& workload,
                                          const PointResult& baseline,
                                          const PointResult& candidate);

}  // namespace infergate
