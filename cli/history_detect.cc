#include "cli/history_detect.h"

#include <cstdio>
#include <iostream>
#include <sstream>

#include "common/io/json_file.h"
#include "gates/verdict/verdict.h"
#include "history/change_point_store.h"
#include "history/metric_series.h"

namespace infergate {

namespace {

std::string percent(double fraction) {
  char text[32];
  std::snprintf(text, sizeof(text), "%+.1f%%", fraction * 100);
  return text;
}

std::string short_commit(const std::string& c) {
  return c.rfind("run ", 0) == 0 ? c : c.substr(0, 12) + (c.ends_with("+dirty") ? "+dirty" : "");
}

// "+10.3% [+8.1%, +12.4%], p = 0.005"
std::string magnitude(const ChangePoint& c) {
  std::ostringstream out;
  out << percent(c.change.estimate) << " [" << percent(c.change.interval.lo) << ", "
      << percent(c.change.interval.hi) << "], p = " << c.p_value;
  return out.str();
}

void write_text(std::ostream& out, const std::vector<ChangePoint>& cps, size_t series) {
  out << cps.size() << " change point" << (cps.size() == 1 ? "" : "s") << " in " << series
      << " series\n";
  for (const ChangePoint& c : cps) {
    out << "change point " << c.id << ": " << describe(c.series) << "\n  " << c.direction << ": "
        << magnitude(c) << "; " << c.mean_before << " -> " << c.mean_after << "\n  commits "
        << short_commit(c.commit_before) << ".." << short_commit(c.commit_after)
        << " (first changed: " << c.commit_after << ", run " << c.run_after << ")\n";
    if (!c.found_commit.empty()) out << "  bisect found: " << c.found_commit << "\n";
  }
}

void write_markdown(std::ostream& out, const std::vector<ChangePoint>& cps) {
  out << "## Change points\n\n";
  if (cps.empty()) {
    out << "None found.\n";
    return;
  }
  out << "| id | series | direction | change | p | commits | bisect "
         "|\n|---|---|---|---|---|---|---|\n";
  for (const ChangePoint& c : cps) {
    out << "| " << c.id << " | " << describe(c.series) << " | " << c.direction << " | "
        << percent(c.change.estimate) << " [" << percent(c.change.interval.lo) << ", "
        << percent(c.change.interval.hi) << "] | " << c.p_value << " | `"
        << short_commit(c.commit_before) << "..." << short_commit(c.commit_after) << "` | "
        << (c.found_commit.empty() ? "" : "`" + short_commit(c.found_commit) + "`") << " |\n";
  }
}

nlohmann::json to_json(const std::vector<ChangePoint>& cps, size_t series) {
  nlohmann::json list = nlohmann::json::array();
  for (const ChangePoint& c : cps) {
    list.push_back({{"id", c.id},
                    {"workload", c.series.workload},
                    {"machine_key", c.series.machine_key},
                    {"sweep", c.series.sweep},
                    {"metric", c.series.metric},
                    {"commit_before", c.commit_before},
                    {"commit_after", c.commit_after},
                    {"run_before", c.run_before},
                    {"run_after", c.run_after},
                    {"mean_before", c.mean_before},
                    {"mean_after", c.mean_after},
                    {"change", c.change.estimate},
                    {"change_interval", {c.change.interval.lo, c.change.interval.hi}},
                    {"p_value", c.p_value},
                    {"direction", c.direction},
                    {"found_commit", c.found_commit}});
  }
  return {{"schema", "infergate.change_points/v1"},
          {"series", series},
          {"change_points", std::move(list)}};
}

}  // namespace

int history_detect(HistoryStore& store, const DetectRequest& request) {
  SeriesFilter filter = request.filter;
  if (filter.metrics.empty()) filter.metrics = default_detect_metrics();
  const std::vector<MetricSeries> all =
      build_metric_series(store.runs(filter.workload), store.metrics(filter.workload), filter);
  ChangePointStore recorded(store);
  std::vector<ChangePoint> shown;
  bool worse = false;
  for (const MetricSeries& s : all) {
    std::vector<ChangePoint> found = detect_change_points(s, request.settings);
    recorded.record(s.key, found);
    if (!request.newest_only) {
      shown.insert(shown.end(), found.begin(), found.end());
      continue;
    }
    for (const ChangePoint& n : completed_by_newest(s, request.settings)) {
      for (const ChangePoint& f : found) {
        if (f.commit_after == n.commit_after) shown.push_back(f);  // with its recorded id
      }
      worse = true;
    }
  }
  std::ostringstream text;
  if (request.format == "json") {
    text << to_json(shown, all.size()).dump(2) << "\n";
  } else if (request.format == "markdown") {
    write_markdown(text, shown);
  } else {
    write_text(text, shown, all.size());
  }
  if (request.out.empty()) {
    std::cout << text.str();
  } else {
    write_text_atomically(text.str(), request.out);
  }
  return worse ? kExitChangePoint : kExitPass;
}

}  // namespace infergate
