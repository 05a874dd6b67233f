#include "gates/report/report_series.h"

#include <algorithm>
#include <cmath>

#include "common/results/request_samples.h"

namespace infergate {

std::vector<double> pooled_request_samples(const PointResult& point, std::string_view metric) {
  std::vector<double> pooled;
  for (const RepetitionResult& rep : point.repetitions) {
    const std::vector<double> samples = request_samples(rep.requests, metric);
    pooled.insert(pooled.end(), samples.begin(), samples.end());
  }
  return pooled;
}

std::vector<ChartPoint> empirical_cdf(std::vector<double> samples, size_t max_points) {
  samples.erase(
      std::remove_if(samples.begin(), samples.end(), [](double v) { return !std::isfinite(v); }),
      samples.end());
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  std::vector<ChartPoint> cdf;
  if (n == 0) return cdf;
  const size_t m = std::max<size_t>(2, std::min(n, max_points));
  size_t previous = n;  // no rank taken yet
  for (size_t k = 0; k < m; ++k) {
    const size_t i = n == 1 ? 0
                            : static_cast<size_t>(std::llround(static_cast<double>(k) * (n - 1) /
                                                               static_cast<double>(m - 1)));
    if (i == previous) continue;
    cdf.push_back({samples[i], static_cast<double>(i + 1) / static_cast<double>(n)});
    previous = i;
  }
  return cdf;
}

std::vector<ChartPoint> timeline_series(const std::vector<TimelineSample>& timeline,
                                        TimelineField field, double scale) {
  std::vector<ChartPoint> series;
  for (const TimelineSample& sample : timeline) {
    if (const std::optional<double>& v = sample.*field) {
      series.push_back({sample.t_ms / 1e3, *v / scale});
    }
  }
  return series;
}

std::vector<ChartPoint> sweep_curve(const ResultsFile& results, const MetricKey& x,
                                    const MetricKey& y) {
  std::vector<ChartPoint> curve;
  for (const PointResult& p : results.points) {
    const std::optional<double> vx = metric_value(p.summary, x), vy = metric_value(p.summary, y);
    if (vx && vy) curve.push_back({*vx, *vy});
  }
  return curve;
}

std::optional<std::vector<double>> mean_step_times(const PointResult& point) {
  std::vector<double> sums(kStepPhases.size(), 0.0);
  int count = 0;
  for (const RepetitionResult& rep : point.repetitions) {
    if (!rep.engine || !rep.engine->engine) continue;
    const EngineStatsRecord& e = *rep.engine->engine;
    const double phases[] = {e.schedule_ms, e.execute_ms, e.sample_ms, e.update_ms,
                             e.injected_delay_ms};
    static_assert(std::size(phases) == kStepPhases.size());
    for (size_t i = 0; i < kStepPhases.size(); ++i) sums[i] += phases[i];
    ++count;
  }
  if (count == 0) return std::nullopt;
  for (double& s : sums) s /= count;
  return sums;
}

}  // namespace infergate
