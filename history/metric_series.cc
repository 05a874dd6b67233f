#include "history/metric_series.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

namespace infergate {

namespace {

std::string commit_label(const StoredRun& r) {
  if (r.commit.empty() || r.commit == "unknown") return "run " + std::to_string(r.id);
  return r.dirty ? r.commit + "+dirty" : r.commit;
}

bool admitted(const SeriesFilter& f, const StoredRun& r, const std::string& metric) {
  if (!f.workload.empty() && r.workload != f.workload) return false;
  if (!f.machine_key.empty() && r.machine_key != f.machine_key) return false;
  return f.metrics.empty() ||
         std::find(f.metrics.begin(), f.metrics.end(), metric) != f.metrics.end();
}

}  // namespace

std::vector<MetricSeries> build_metric_series(const std::vector<StoredRun>& runs,
                                              const std::vector<StoredMetric>& metrics,
                                              const SeriesFilter& filter) {
  std::unordered_map<int64_t, size_t> run_order;  // run id -> position in `runs` (oldest first)
  for (size_t i = 0; i < runs.size(); ++i) run_order[runs[i].id] = i;
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::map<size_t, std::vector<double>>> values;  // series -> run -> values
  for (const StoredMetric& m : metrics) {
    const auto it = run_order.find(m.run_id);
    if (it == run_order.end()) continue;
    const StoredRun& r = runs[it->second];
    if (!admitted(filter, r, m.metric)) continue;
    values[{r.workload, r.machine_key, m.sweep, m.metric}][it->second].push_back(m.value);
  }
  std::vector<MetricSeries> out;
  for (const auto& [key, by_run] : values) {
    MetricSeries s;
    s.key = {std::get<0>(key), std::get<1>(key), std::get<2>(key), std::get<3>(key)};
    std::map<std::string, size_t> position;           // commit -> index in s.commits
    for (const auto& [order, run_values] : by_run) {  // oldest run first
      const StoredRun& r = runs[order];
      const std::string label = filter.per_run ? "run " + std::to_string(r.id) : commit_label(r);
      auto [at, fresh] = position.emplace(label, s.commits.size());
      if (fresh) s.commits.push_back({label, {}, r.created_at, {}, {}});
      SeriesCommit& c = s.commits[at->second];
      c.run_ids.push_back(r.id);
      c.values.insert(c.values.end(), run_values.begin(), run_values.end());
      c.value_runs.insert(c.value_runs.end(), run_values.size(), r.id);
    }
    out.push_back(std::move(s));
  }
  return out;
}

std::string describe(const SeriesKey& key) {
  std::string text = key.metric + " of " + key.workload;
  if (!key.sweep.empty()) text += " at " + key.sweep;
  return text + " on " + key.machine_key;
}

}  // namespace infergate
