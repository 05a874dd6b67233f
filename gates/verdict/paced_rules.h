// Rules that cannot move in their workload's design. In an open loop (arrivals at a set rate,
// no concurrency cap) that the target keeps up with, completions per second are the arrival
// rate whatever the code does: a throughput rule there passes a slowdown as readily as no
// change (issue 15 measured a 0.2% cv and no detection). The metric registry marks such metrics
// (paced_by_arrivals); closed-loop workloads measure capacity instead.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/rules/rule_set.h"

namespace infergate {

struct Comparison;

// For `validate`, from the resolved workload alone: one line per applicable rule on a paced
// metric when the workload is an open loop without load.max_concurrency; none otherwise.
std::vector<std::string> paced_rule_notes(const RuleSet& rules, const nlohmann::json& workload);

// For `compare`: adds a warning to each evaluation of a paced metric at a point whose candidate
// completed requests at 80% or more of its arrival rate (the target kept up).
void warn_paced_rules(Comparison& c, const ResultsFile& candidate);

}  // namespace infergate
