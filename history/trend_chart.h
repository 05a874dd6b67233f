// One metric's trend over commits for the dashboard (docs/history.md, "Dashboard"): every
// repetition a dot that links to its run's report, the commits' means a line, and each change
// point a vertical line labelled with its change and, once bisected, the commit found.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/report/svg_chart.h"
#include "history/change_point_detection.h"
#include "history/metric_series.h"

namespace infergate {

// `reports`: the runs whose report page exists as runs/<id>.html (their dots link to it).
XyChart trend_chart(const MetricSeries& series, const std::vector<ChangePoint>& change_points,
                    const std::set<int64_t>& reports);

// "commit 0a05720613 (run 12): 10.3"
std::string point_label(const SeriesCommit& commit, size_t value);

}  // namespace infergate
