// The trends dashboard's pages (docs/history.md, "Dashboard"), as self-contained HTML like the
// reports: a landing page of recent change points and the workloads, and one page per
// workload and machine with a trend chart per sweep point and metric.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "history/change_point_detection.h"
#include "history/history_store.h"
#include "history/metric_series.h"

namespace infergate {

struct DashboardData {
  std::string database;  // as messages name it
  std::string generated_at;
  std::vector<StoredRun> runs;
  std::vector<MetricSeries> series;
  std::vector<ChangePoint> change_points;  // newest first
  std::set<int64_t> reports;               // runs with a report page (runs/<id>.html)
};

// "workload-<workload>--<machine>.html", both safe file names.
std::string workload_page_name(const std::string& workload, const std::string& machine_key);

std::string dashboard_index_html(const DashboardData& data);
std::string dashboard_workload_html(const DashboardData& data, const std::string& workload,
                                    const std::string& machine_key);

}  // namespace infergate
