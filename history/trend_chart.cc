#include "history/trend_chart.h"

#include "common/report/metric_format.h"
#include "common/stats/descriptive.h"

namespace infergate {

namespace {

std::string short_commit(const std::string& c) {
  return c.rfind("run ", 0) == 0 ? c : c.substr(0, 10) + (c.ends_with("+dirty") ? "+dirty" : "");
}

std::string change_label(const ChangePoint& c) {
  std::string label = (c.change.estimate >= 0 ? "+" : "") +
                      format_number(c.change.estimate * 100, 3) + "% " + c.direction;
  if (!c.found_commit.empty()) label += ", bisect: " + c.found_commit.substr(0, 10);
  return label;
}

}  // namespace

std::string point_label(const SeriesCommit& commit, size_t value) {
  return "commit " + short_commit(commit.commit) + " (run " +
         std::to_string(commit.value_runs[value]) + "): " + format_number(commit.values[value]);
}

XyChart trend_chart(const MetricSeries& series, const std::vector<ChangePoint>& change_points,
                    const std::set<int64_t>& reports) {
  XyChart chart;
  chart.kind = "trend";
  chart.title = describe(series.key);
  chart.x.label = "commit, oldest to newest (" + std::to_string(series.commits.size()) + ")";
  chart.y.label = series.key.metric;
  chart.width = 900;
  chart.height = 300;
  ChartSeries dots{"repetitions", "#4c78a8", {}, SeriesStyle::kDots};
  dots.opacity = 0.55;
  ChartSeries means{"commit mean", "#222222", {}, SeriesStyle::kLine};
  for (size_t i = 0; i < series.commits.size(); ++i) {
    const SeriesCommit& c = series.commits[i];
    for (size_t v = 0; v < c.values.size(); ++v) {
      ChartPoint p{double(i), c.values[v], "", point_label(c, v)};
      if (reports.contains(c.value_runs[v])) {
        p.link = "runs/" + std::to_string(c.value_runs[v]) + ".html";
      }
      dots.points.push_back(std::move(p));
    }
    means.points.push_back({double(i), mean(c.values)});
  }
  chart.series = {std::move(dots), std::move(means)};
  for (const ChangePoint& c : change_points) {
    if (!(c.series == series.key)) continue;
    size_t at = 0;  // its first changed commit's place (stored change points keep no index)
    while (at < series.commits.size() && series.commits[at].commit != c.commit_after) ++at;
    if (at == series.commits.size()) continue;
    chart.references.push_back({true, double(at) - 0.5, change_label(c),
                                c.direction == "worse"    ? "#c0392b"
                                : c.direction == "better" ? "#1e8449"
                                                          : "#555555"});
  }
  return chart;
}

}  // namespace infergate
