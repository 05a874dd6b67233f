// `history dashboard --out DIR`: the trends dashboard as a static, self-contained site
// (docs/history.md, "Dashboard"): index.html, a page per workload and machine, and each stored
// run's own report under runs/ (written once: a stored run never changes).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "common/results/results_file.h"
#include "history/change_point_detection.h"
#include "history/dashboard_pages.h"
#include "history/history_store.h"
#include "history/metric_series.h"

namespace infergate {

// Renders one run's report page: the composition root passes gates' html_run_report, so that
// history depends on the report only through this (docs/architecture.md).
using RunReportRenderer = std::function<std::string(const ResultsFile&)>;

struct DashboardSettings {
  SeriesFilter filter;  // metrics: default_detect_metrics() when empty
  bool detect = true;   // run (and record) detection first; else show the recorded change points
  DetectSettings detect_settings;
  bool run_reports = true;       // write runs/<id>.html for runs that have none yet
  RunReportRenderer run_report;  // how; without one, no run report is written
};

struct DashboardOutcome {
  size_t pages = 0, reports_written = 0, reports_kept = 0;
};

// Reads the history into what the pages show (detecting first when asked).
DashboardData dashboard_data(HistoryStore& store, const DashboardSettings& settings);
DashboardOutcome write_dashboard(HistoryStore& store, const std::string& out_dir,
                                 const DashboardSettings& settings);
// A stored run's report page, drawn by `render`; throws HistoryError when its file was pruned.
std::string run_report_html(const HistoryStore& store, int64_t run,
                            const RunReportRenderer& render);

}  // namespace infergate
