// One gate rule: which metric, which way is better, how much worse is too much, how serious
// a regression is, which workloads it covers, and how many repetitions it needs (docs/gates.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/results/metric_key.h"

namespace infergate {

enum class Direction { kLowerIsBetter, kHigherIsBetter };

enum class Severity {
  kFail,                // a regression fails the gate
  kWarn,                // a regression is reported, the gate still passes
  kNeedsJustification,  // a regression fails unless the change carries the rule's justification
                        // file
};

struct GateRule {
  std::string name;  // unique within its file, e.g. "tpot-p95"
  std::string description;
  MetricKey metric;
  Direction better = Direction::kLowerIsBetter;
  // A change counts as beyond the threshold only when it exceeds every threshold given.
  std::optional<double> relative_threshold;  // fraction of the baseline: 0.05 = 5%
  std::optional<double> absolute_threshold;  // in the metric's unit
  Severity severity = Severity::kFail;
  std::vector<std::string> workloads = {"*"};  // globs matched against the workload name
  std::vector<std::string> except_workloads;   // ... and these left out
  int min_repetitions = 3;                     // on each side
  // Kind "quality": the metric is computed, not sampled (KL divergence: the same in every
  // repetition), so a change worse than the thresholds is a regression outright, with no test
  // and no interval; the thresholds are in the metric's own terms, not relative to noise.
  bool exact = false;
  // kNeedsJustification: a file whose presence acknowledges the change, e.g.
  // "perf-justifications/peak-memory.md" (relative to the justification root).
  std::string justification_file;

  bool applies_to(const std::string& workload_name) const;
};

const char* to_string(Direction d);
const char* to_string(Severity s);

}  // namespace infergate
