// What `infergate calibrate` measures, from runs already made (the gates never run a workload:
// the CLI runs them and hands the results here): the A/A noise and false-alarm rates of one
// build's repetitions, and the detection rates against runs with a known injected slowdown.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/baseline/noise_profile.h"
#include "gates/calibrate/verdict_rates.h"
#include "gates/rules/rule_set.h"

namespace infergate {

// How the resampled comparisons are made.
struct CalibrationDesign {
  int reps_per_side = 0;
  int auto_repeat = 0;  // as compare --auto-repeat
  int trials = 200;
};

// The metric key of every rule that applies to `workload`: what calibrate measures.
std::vector<std::string> rule_metric_keys(const RuleSet& rules, const std::string& workload);

// `reps_per_side` when > 0; otherwise the largest min_repetitions of the rules, the fewest a
// comparison under them can use.
CalibrationDesign calibration_design(const RuleSet& rules, int reps_per_side, int auto_repeat,
                                     int trials);

struct AaCalibration {
  NoiseProfile noise;  // verdict_rates: the A/A entry
  std::vector<VerdictCounts> counts;
};

// The spread of every metric a rule applying to the workload reads, over the first point's
// repetitions, and each rule's verdicts on resampled A/A splits of them.
AaCalibration calibrate_aa(const ResultsFile& runs, const RuleSet& rules,
                           const CalibrationDesign& design);

// The injected delay that makes each decoding step `fraction` slower: the mean CPU time per step
// of `runs` (the engine threads', where recorded; else the execute time), times `fraction`. Throws
// std::runtime_error when `runs` has no engine step times (not an engine target).
int64_t slowdown_delay_us(const ResultsFile& runs, double fraction);

// The delay per decoding step `slowed` was run with (its workload's
// target.engine.debug.inject_decode_delay_us), 0 when it has none.
int64_t injected_delay_us(const ResultsFile& slowed);

// What the slowed runs did to each metric of `keys` ("summary.tpot_ms.p50"), as power claims
// must name it: the ratio of their geometric mean over the first point's repetitions to that of
// `runs`, minus one (a metric without two positive values on each side is left out). The blocks
// ran one after the other, so drift between them is part of it: the paired calibration's
// change (calibrate --paired) is the cleaner figure.
nlohmann::json measured_change(const ResultsFile& runs, const ResultsFile& slowed,
                               const std::vector<std::string>& keys);

// "tpot_ms.p50 +7.1%, tpot_ms.p95 +9.0%": measured changes as power claims must name them
// ("nothing" when there are none).
std::string format_measured_change(const nlohmann::json& changes);

// Each rule's verdicts on resampled comparisons of `runs` against `slowed`, which ran with
// `delay_us` per decoding step (`fraction` of a step); appends that entry to
// noise.verdict_rates, with the slowed runs' measured_change on every gated metric.
std::vector<VerdictCounts> detect_slowdown(const ResultsFile& runs, const ResultsFile& slowed,
                                           const RuleSet& rules, const CalibrationDesign& design,
                                           double fraction, int64_t delay_us, NoiseProfile& noise);

}  // namespace infergate
