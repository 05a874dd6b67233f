// The report folder `compare --report-dir` and `report` write: verdicts.json, report.html,
// summary.md and junit.xml (docs/reports.md).
#pragma once

#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/verdict/comparison.h"

namespace infergate {

// Checks before any work that every report can be written into `dir` (created if needed), as
// write_report_files() will; throws std::runtime_error naming the file and why.
void check_report_files_writable(const std::string& dir);

// Writes every report atomically into `dir` (created if needed); returns the paths written.
std::vector<std::string> write_report_files(const std::string& dir, const Comparison& comparison,
                                            const ResultsFile& baseline,
                                            const ResultsFile& candidate);

}  // namespace infergate
