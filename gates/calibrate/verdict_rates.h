// How often each rule gives each verdict when judging resampled pairs of real runs: on A/A
// splits of one build's repetitions (false alarms) and on A/B pairs against runs with a known
// injected slowdown (detection power). `infergate calibrate` reports both (docs/gates.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/rules/rule_set.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

// The last row of resampled_verdicts(): per trial, the whole gate's verdict as `compare` would
// exit on the same runs (gate_exit_code): regressed (exit 1), inconclusive (exit 3) or pass.
inline constexpr const char* kGateRow = "(gate)";

struct VerdictCounts {
  std::string rule;
  int trials = 0, pass = 0, regressed = 0, improved = 0, inconclusive = 0;
};

struct ResamplingPlan {
  int reps_per_side = 5;
  int auto_repeat = 0;  // up to this many more per side while the gate is inconclusive
  int trials = 200;
  uint64_t seed = 1;
};

// Each trial draws repetitions without replacement for each side and evaluates every rule that
// applies to `workload`, starting with `reps_per_side` and, like `compare --auto-repeat`, adding
// two per side while the gate is inconclusive; one row per rule (its final verdicts), then
// kGateRow. With `b` null the trial is A/A: distinct repetitions of `a`, split in two. Throws
// std::invalid_argument when a pool is too small. Trials overlap in repetitions, so they are
// not independent: the rates estimate what a gate would do on this machine, not a sampling
// distribution.
std::vector<VerdictCounts> resampled_verdicts(const PointResult& a, const PointResult* b,
                                              const RuleSet& rules, const std::string& workload,
                                              const ResamplingPlan& plan);

// One more trial of a rule (its verdict) or of the gate (compare's exit code for the trial).
void count_verdict(const RuleEvaluation& e, VerdictCounts& c);
void count_gate(int exit_code, VerdictCounts& gate);

nlohmann::json verdict_counts_to_json(const std::vector<VerdictCounts>& counts);

}  // namespace infergate
