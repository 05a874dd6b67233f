// The figures of the HTML reports, one function per kind of chart, each an HTML fragment: SVG
// charts in <figure> elements, or a note saying why a chart is missing (no request records, no
// engine step times). A report shows one side (a run) or two (baseline and candidate).
#pragma once

#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

struct ReportSide {
  std::string name;   // "baseline", "candidate" or "run"
  std::string color;  // CSS colour of its lines and dots
  const ResultsFile* results = nullptr;
};

// Okabe-Ito colours, distinguishable with colour-blindness.
inline constexpr const char* kBaselineColor = "#0072B2";
inline constexpr const char* kCandidateColor = "#D55E00";

// TTFT, TPOT, ITL and E2E CDFs of each side's requests pooled over repetitions, per point.
std::string latency_cdf_figures(const std::vector<ReportSide>& sides);
// TTFT p95 and TPOT p95 against request throughput, one line per side, when a side has more
// than one sweep point; a note otherwise.
std::string throughput_latency_figures(const std::vector<ReportSide>& sides);
// RSS and CPU (and GPU, when sampled) utilization over time, a line per repetition.
std::string timeline_figures(const std::vector<ReportSide>& sides);
// The engine's time per step phase, a stacked bar per side and point.
std::string step_breakdown_figure(const std::vector<ReportSide>& sides);
// One rule's per-repetition values on each side, with the baseline mean and the threshold.
std::string repetition_dot_plot(const RuleEvaluation& evaluation);

}  // namespace infergate
