// The HTML reports (docs/reports.md): one self-contained file each, charts as inline SVG, no
// script and nothing fetched from the network.
#pragma once

#include <string>

#include "common/report/html_page.h"
#include "common/results/results_file.h"
#include "gates/verdict/comparison.h"

namespace infergate {

// A comparison: the verdict banner, the rules table, per-repetition dot plots, latency CDFs,
// the throughput-latency curve (sweeps), resource timelines, engine step breakdown, the
// fingerprint table and the reproduce command. `baseline` and `candidate` are the files the
// comparison was made from (the charts are drawn from them).
std::string html_report(const Comparison& comparison, const ResultsFile& baseline,
                        const ResultsFile& candidate);
// One run, no verdicts: its headline numbers per point and the same charts for one side;
// `leading` sections come first (diagnose's "Diagnosis").
std::string html_run_report(const ResultsFile& results,
                            const std::vector<HtmlSection>& leading = {});

}  // namespace infergate
