#include "history/change_point_detection.h"

#include <algorithm>
#include <cmath>

#include "common/results/metric_registry.h"
#include "common/stats/descriptive.h"

namespace infergate {

namespace {

double commit_mean(const SeriesCommit& c) { return mean(c.values); }

// The mean of the commit means in [begin, end).
double segment_mean(const std::vector<SeriesCommit>& commits, size_t begin, size_t end) {
  double sum = 0;
  for (size_t i = begin; i < end; ++i) sum += commit_mean(commits[i]);
  return sum / double(end - begin);
}

double relative(double before, double after) {
  return before == 0 ? (after == 0 ? 0 : INFINITY) : after / before - 1;
}

// Drops, one at a time, the split whose change between its neighbouring segments is smallest
// while that change is below the minimum effect: removing one merges two segments, which can
// change its neighbours' effects.
std::vector<size_t> with_min_effect(const std::vector<SeriesCommit>& commits,
                                    std::vector<size_t> splits, double min_effect) {
  while (!splits.empty()) {
    size_t weakest = 0;
    double weakest_effect = INFINITY;
    for (size_t i = 0; i < splits.size(); ++i) {
      const size_t begin = i == 0 ? 0 : splits[i - 1];
      const size_t end = i + 1 == splits.size() ? commits.size() : splits[i + 1];
      const double effect = std::fabs(
          relative(segment_mean(commits, begin, splits[i]), segment_mean(commits, splits[i], end)));
      if (effect < weakest_effect) weakest = i, weakest_effect = effect;
    }
    if (weakest_effect >= min_effect) break;
    splits.erase(splits.begin() + std::ptrdiff_t(weakest));
  }
  return splits;
}

RepetitionSamples segment_samples(const std::vector<SeriesCommit>& commits, size_t begin,
                                  size_t end) {
  RepetitionSamples s;
  for (size_t i = begin; i < end; ++i) s.repetitions.push_back(commits[i].values);
  return s;
}

std::string direction_of(const std::string& metric, double change) {
  const std::optional<MetricInfo> info = find_metric(metric.substr(0, metric.find('.')));
  if (!info || info->improves == Improves::kNeither) return "changed";
  const bool up_is_worse = info->improves == Improves::kLower;
  return (change > 0) == up_is_worse ? "worse" : "better";
}

}  // namespace

const std::vector<std::string>& default_detect_metrics() {
  static const std::vector<std::string> m = {
      "tpot_ms.p50",           "tpot_ms.p95", "ttft_ms.p95",      "request_throughput_rps",
      "output_throughput_tps", "goodput_rps", "peak_memory_bytes"};
  return m;
}

std::vector<ChangePoint> detect_change_points(const MetricSeries& series,
                                              const DetectSettings& settings) {
  const size_t skip =
      series.commits.size() > settings.max_points ? series.commits.size() - settings.max_points : 0;
  const std::vector<SeriesCommit> commits(series.commits.begin() + std::ptrdiff_t(skip),
                                          series.commits.end());
  std::vector<double> means;
  for (const SeriesCommit& c : commits) means.push_back(commit_mean(c));
  std::vector<size_t> indices;
  std::vector<double> p_values(commits.size(), 1.0);
  for (const EDivisiveSplit& s : e_divisive(means, settings.e_divisive)) {
    indices.push_back(s.index);
    p_values[s.index] = s.p_value;
  }
  indices = with_min_effect(commits, indices, settings.min_effect);

  std::vector<ChangePoint> out;
  for (size_t i = 0; i < indices.size(); ++i) {
    const size_t at = indices[i];
    const size_t begin = i == 0 ? 0 : indices[i - 1];
    const size_t end = i + 1 == indices.size() ? commits.size() : indices[i + 1];
    ChangePoint cp;
    cp.series = series.key;
    cp.index = skip + at;
    cp.commit_before = commits[at - 1].commit;
    cp.commit_after = commits[at].commit;
    cp.run_before = commits[at - 1].run_ids.back();
    cp.run_after = commits[at].run_ids.front();
    cp.created_after = commits[at].created_at;
    cp.mean_before = segment_mean(commits, begin, at);
    cp.mean_after = segment_mean(commits, at, end);
    BootstrapOptions b;
    b.confidence = settings.confidence;
    b.seed = settings.e_divisive.seed;
    cp.change = bootstrap_relative_change(segment_samples(commits, begin, at),
                                          segment_samples(commits, at, end), mean_statistic(), b);
    cp.p_value = p_values[at];
    cp.direction = direction_of(series.key.metric, cp.change.estimate);
    out.push_back(std::move(cp));
  }
  return out;
}

std::vector<ChangePoint> completed_by_newest(const MetricSeries& series,
                                             const DetectSettings& settings) {
  if (series.commits.empty()) return {};
  MetricSeries before = series;
  before.commits.pop_back();
  const std::vector<ChangePoint> old = detect_change_points(before, settings);
  std::vector<ChangePoint> out;
  for (const ChangePoint& cp : detect_change_points(series, settings)) {
    const bool known = std::any_of(old.begin(), old.end(), [&](const ChangePoint& o) {
      return o.commit_after == cp.commit_after;
    });
    if (!known && cp.direction == "worse") out.push_back(cp);
  }
  return out;
}

}  // namespace infergate
