#include "history/dashboard_site.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "common/io/json_file.h"
#include "common/results/results_file.h"
#include "common/util/time_stamp.h"
#include "history/change_point_store.h"

namespace infergate {

namespace {

namespace fs = std::filesystem;

bool admitted(const SeriesFilter& f, const ChangePoint& c) {
  return (f.workload.empty() || c.series.workload == f.workload) &&
         (f.machine_key.empty() || c.series.machine_key == f.machine_key) &&
         std::find(f.metrics.begin(), f.metrics.end(), c.series.metric) != f.metrics.end();
}

}  // namespace

std::string run_report_html(const HistoryStore& store, int64_t run,
                            const RunReportRenderer& render) {
  const std::string source = "stored run " + std::to_string(run);
  return render(parse_results(nlohmann::json::parse(store.results_text(run)), source));
}

DashboardData dashboard_data(HistoryStore& store, const DashboardSettings& settings) {
  SeriesFilter filter = settings.filter;
  if (filter.metrics.empty()) filter.metrics = default_detect_metrics();
  DashboardData d;
  d.database = store.path();
  d.generated_at = utc_iso8601_now();
  d.runs = store.runs(filter.workload);
  d.series = build_metric_series(d.runs, store.metrics(filter.workload), filter);
  ChangePointStore points(store);
  if (settings.detect) {
    for (const MetricSeries& s : d.series) {
      std::vector<ChangePoint> found = detect_change_points(s, settings.detect_settings);
      points.record(s.key, found);
    }
  }
  for (ChangePoint& c : points.all()) {
    if (admitted(filter, c)) d.change_points.push_back(std::move(c));
  }
  return d;
}

DashboardOutcome write_dashboard(HistoryStore& store, const std::string& out_dir,
                                 const DashboardSettings& settings) {
  DashboardData d = dashboard_data(store, settings);
  DashboardOutcome out;
  fs::create_directories(fs::path(out_dir) / "runs");
  for (const StoredRun& r : d.runs) {
    const fs::path page = fs::path(out_dir) / "runs" / (std::to_string(r.id) + ".html");
    if (fs::exists(page)) {
      d.reports.insert(r.id);
      ++out.reports_kept;
      continue;
    }
    if (!settings.run_reports || !settings.run_report) continue;
    try {
      write_text_atomically(run_report_html(store, r.id, settings.run_report), page.string());
      d.reports.insert(r.id);
      ++out.reports_written;
    } catch (const HistoryError&) {  // its file was pruned: its dots link nowhere
    }
  }
  std::set<std::pair<std::string, std::string>> pages;
  for (const MetricSeries& s : d.series) pages.insert({s.key.workload, s.key.machine_key});
  for (const auto& [workload, machine] : pages) {
    write_text_atomically(dashboard_workload_html(d, workload, machine),
                          (fs::path(out_dir) / workload_page_name(workload, machine)).string());
  }
  write_text_atomically(dashboard_index_html(d), (fs::path(out_dir) / "index.html").string());
  out.pages = pages.size() + 1;
  return out;
}

}  // namespace infergate
