#include "history/dashboard_pages.h"

#include <map>
#include <utility>

#include "common/report/html_page.h"
#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"
#include "common/util/safe_file_name.h"
#include "history/trend_chart.h"

namespace infergate {

namespace {

constexpr size_t kRecentChangePoints = 50;

std::string cell(const std::string& text) { return "<td>" + escape_markup(text) + "</td>"; }

std::string percent(double f) { return (f >= 0 ? "+" : "") + format_number(f * 100, 3) + "%"; }

std::string short_commit(const std::string& c) {
  return c.rfind("run ", 0) == 0 ? c : c.substr(0, 10) + (c.ends_with("+dirty") ? "+dirty" : "");
}

std::string run_link(const DashboardData& d, int64_t run) {
  const std::string text = "run " + std::to_string(run);
  if (!d.reports.contains(run)) return escape_markup(text);
  return "<a href=\"runs/" + std::to_string(run) + ".html\">" + text + "</a>";
}

std::string change_point_rows(const DashboardData& d, const std::vector<ChangePoint>& cps) {
  std::string rows;
  for (const ChangePoint& c : cps) {
    const std::string page = workload_page_name(c.series.workload, c.series.machine_key);
    const std::string color = c.direction == "worse"    ? "#c0392b"
                              : c.direction == "better" ? "#1e8449"
                                                        : "#555555";
    rows += "<tr class=\"change-point\"><td>" + std::to_string(c.id) + "</td><td><a href=\"" +
            escape_markup(page) + "\">" + escape_markup(describe(c.series)) + "</a></td>" +
            "<td style=\"color:" + color + "\">" + escape_markup(c.direction) + "</td>" +
            cell(percent(c.change.estimate) + " [" + percent(c.change.interval.lo) + ", " +
                 percent(c.change.interval.hi) + "]") +
            cell(format_number(c.p_value, 2)) + "<td><code>" +
            escape_markup(short_commit(c.commit_before)) + "</code> .. <code>" +
            escape_markup(short_commit(c.commit_after)) + "</code></td><td>" +
            run_link(d, c.run_before) + " / " + run_link(d, c.run_after) + "</td>" +
            cell(c.found_commit.empty() ? "" : short_commit(c.found_commit)) + "</tr>";
  }
  return rows;
}

std::string change_point_table(const DashboardData& d, const std::vector<ChangePoint>& cps) {
  if (cps.empty()) return "<p>No change points.</p>";
  return "<table><tr><th>id</th><th>series</th><th>direction</th><th>change [95% interval]</th>"
         "<th>p</th><th>commits</th><th>runs before / after</th><th>bisect found</th></tr>" +
         change_point_rows(d, cps) + "</table>";
}

// Per workload and machine: runs, commits, the newest run's time.
struct WorkloadSummary {
  int runs = 0;
  std::string newest;
};

std::map<std::pair<std::string, std::string>, WorkloadSummary> workloads(const DashboardData& d) {
  std::map<std::pair<std::string, std::string>, WorkloadSummary> out;
  for (const StoredRun& r : d.runs) {
    WorkloadSummary& w = out[{r.workload, r.machine_key}];
    ++w.runs;
    w.newest = std::max(w.newest, r.created_at);
  }
  return out;
}

}  // namespace

std::string workload_page_name(const std::string& workload, const std::string& machine_key) {
  return "workload-" + safe_file_name(workload) + "--" + safe_file_name(machine_key) + ".html";
}

std::string dashboard_index_html(const DashboardData& d) {
  std::vector<ChangePoint> recent = d.change_points, worse;
  if (recent.size() > kRecentChangePoints) recent.resize(kRecentChangePoints);
  for (const ChangePoint& c : d.change_points) {
    if (c.direction == "worse" && c.found_commit.empty()) worse.push_back(c);
  }
  std::string list =
      "<table><tr><th>workload</th><th>machine</th><th>runs</th>"
      "<th>newest run</th></tr>";
  for (const auto& [key, w] : workloads(d)) {
    list += "<tr class=\"workload\"><td><a href=\"" +
            escape_markup(workload_page_name(key.first, key.second)) + "\">" +
            escape_markup(key.first) + "</a></td>" + cell(key.second) +
            cell(std::to_string(w.runs)) + cell(w.newest) + "</tr>";
  }
  list += "</table>";
  const std::string header = "<p>" + std::to_string(d.runs.size()) + " runs, " +
                             std::to_string(d.change_points.size()) + " change points, from " +
                             escape_markup(d.database) + "; generated " +
                             escape_markup(d.generated_at) + ".</p>";
  return html_document(
      "infergate results history", header,
      {{"regressions", "Regressions not yet bisected", change_point_table(d, worse)},
       {"change-points", "Recent change points", change_point_table(d, recent)},
       {"workloads", "Workloads", list}});
}

std::string dashboard_workload_html(const DashboardData& d, const std::string& workload,
                                    const std::string& machine_key) {
  std::vector<ChangePoint> own;
  for (const ChangePoint& c : d.change_points) {
    if (c.series.workload == workload && c.series.machine_key == machine_key) own.push_back(c);
  }
  std::string charts;
  for (const MetricSeries& s : d.series) {
    if (s.key.workload != workload || s.key.machine_key != machine_key) continue;
    charts +=
        "<figure>" + render_xy_chart(trend_chart(s, d.change_points, d.reports)) + "</figure>";
  }
  const std::string header = "<p><a href=\"index.html\">All workloads</a> &middot; machine " +
                             escape_markup(machine_key) + "; each dot is one repetition and " +
                             "links to its run's report.</p>";
  return html_document(workload + " on " + machine_key, header,
                       {{"change-points", "Change points", change_point_table(d, own)},
                        {"trends", "Trends", charts}});
}

}  // namespace infergate
