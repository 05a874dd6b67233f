// Capacity at the SLO in the HTML reports (docs/reports.md): the throughput frontier of a load
// sweep or search (common/results/frontier.h), and the path a capacity search took
// (repetitions[].search, common/results/search_record.h). HTML fragments: SVG charts in
// <figure> elements, or a note saying why there is nothing to draw.
#pragma once

#include <string>
#include <vector>

#include "gates/report/report_figures.h"

namespace infergate {

// One chart of output tokens/s per device against output tokens/s per user, every side's loads
// as dots (solid: met the SLO, pale: did not, plain: no SLO) and its frontier as a line; the
// sides overlaid, so a comparison shows whether the candidate moved the frontier.
std::string frontier_figures(const std::vector<ReportSide>& sides);

// Per side and point, the first repetition's capacity search: the load of each probe in the
// order run, coloured by whether it met the SLO, the final bracket and the capacity; the
// verdict as caption, a table of the probes and the cliffs found.
std::string search_path_figures(const std::vector<ReportSide>& sides);

}  // namespace infergate
