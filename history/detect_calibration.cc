#include "history/detect_calibration.h"

#include <cmath>
#include <stdexcept>

#include "common/random/xoshiro256.h"
#include "common/results/metric_registry.h"
#include "common/stats/descriptive.h"

namespace infergate {

namespace {

double coefficient_of_variation(const std::vector<SeriesCommit>& commits) {
  std::vector<double> means;
  for (const SeriesCommit& c : commits) means.push_back(mean(c.values));
  const double m = mean(means);
  double ss = 0;
  for (double x : means) ss += (x - m) * (x - m);
  return means.size() < 2 || m == 0 ? 0 : std::sqrt(ss / double(means.size() - 1)) / std::fabs(m);
}

// The factor that makes the metric worse by `step`.
double worse_factor(const std::string& metric, double step) {
  const std::optional<MetricInfo> info = find_metric(metric.substr(0, metric.find('.')));
  return info && info->improves == Improves::kHigher ? 1 - step : 1 + step;
}

MetricSeries drawn(const MetricSeries& aa, size_t length, Xoshiro256& rng) {
  MetricSeries s;
  s.key = aa.key;
  for (size_t i = 0; i < length; ++i) {
    SeriesCommit c = aa.commits[rng.index(aa.commits.size())];
    c.commit = "trial commit " + std::to_string(i);
    s.commits.push_back(std::move(c));
  }
  return s;
}

// The share of `trials` histories with a step of `step` where detect finds it.
double found_share(const MetricSeries& aa, const DetectCalibrationSettings& s, double step,
                   int trials) {
  const double factor = worse_factor(aa.key.metric, step);
  Xoshiro256 rng(s.seed + 1);
  int found = 0;
  for (int t = 0; t < trials; ++t) {
    MetricSeries stepped = drawn(aa, s.length, rng);
    const size_t at = 2 + rng.index(s.length - 3);  // 2 .. length - 2
    for (size_t i = at; i < stepped.commits.size(); ++i) {
      for (double& v : stepped.commits[i].values) v *= factor;
    }
    for (const ChangePoint& c : detect_change_points(stepped, s.detect)) {
      const size_t distance = c.index > at ? c.index - at : at - c.index;
      if (distance <= 1 && c.direction != "better") {
        ++found;
        break;
      }
    }
  }
  return double(found) / trials;
}

// Bisection in log space between a step that is missed and one that is found 95% of the time.
double step_found_95(const MetricSeries& aa, const DetectCalibrationSettings& s) {
  constexpr double kLargest = 0.9, kPower = 0.95;
  double missed = 0.001, found = kLargest;
  if (found_share(aa, s, found, kPowerTrials) < kPower) return NAN;
  while (found / missed > 1.1) {
    const double mid = std::sqrt(missed * found);
    (found_share(aa, s, mid, kPowerTrials) >= kPower ? found : missed) = mid;
  }
  return found;
}

}  // namespace

DetectCalibration calibrate_detection(const MetricSeries& aa,
                                      const DetectCalibrationSettings& settings) {
  if (aa.commits.size() < 2) {
    throw std::invalid_argument(describe(aa.key) + ": an A/A calibration needs at least 2 runs, " +
                                "found " + std::to_string(aa.commits.size()));
  }
  if (settings.length < 5) throw std::invalid_argument("calibration histories need >= 5 commits");
  DetectCalibration out;
  out.series = aa.key;
  out.runs = aa.commits.size();
  out.run_cv = coefficient_of_variation(aa.commits);
  out.in_order = detect_change_points(aa, settings.detect).size();
  out.trials = settings.trials;
  Xoshiro256 rng(settings.seed);
  for (int t = 0; t < settings.trials; ++t) {
    if (!detect_change_points(drawn(aa, settings.length, rng), settings.detect).empty()) {
      ++out.false_alarms;
    }
  }
  out.detected =
      int(std::lround(found_share(aa, settings, settings.step, settings.trials) * settings.trials));
  out.step_found_95 = step_found_95(aa, settings);
  return out;
}

}  // namespace infergate
