#include "gates/baseline/noise_profile.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

#include "common/io/json_file.h"
#include "common/results/machine_key.h"
#include "common/results/metric_key.h"
#include "common/stats/descriptive.h"

namespace infergate {

namespace {

// Inverse of the standard normal CDF by bisection on erfc: precise enough for z-scores.
double normal_quantile(double p) {
  double lo = -10, hi = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = (lo + hi) / 2;
    (0.5 * std::erfc(-mid / std::numbers::sqrt2) < p ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

std::string percent(double fraction) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  s << fraction * 100 << "%";
  return s.str();
}

// Repetitions per side at which `cv` makes `threshold` detectable.
int repetitions_needed(double cv, double threshold, double alpha) {
  for (int n = 2; n <= 1000; ++n) {
    if (detectable_change(cv, n, alpha) <= threshold) return n;
  }
  return 1000;
}

}  // namespace

const MetricNoise* NoiseProfile::find(const std::string& key) const {
  for (const MetricNoise& m : metrics) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

const PairedNoise* NoiseProfile::find_paired(const std::string& key) const {
  for (const PairedNoise& m : paired) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

std::vector<PairedNoise> measure_paired_noise(const PointResult& first, const PointResult& second,
                                              const std::vector<std::string>& keys) {
  std::vector<PairedNoise> out;
  const size_t n = std::min(first.repetitions.size(), second.repetitions.size());
  for (const std::string& text : keys) {
    const MetricKey key = parse_metric_key(text);
    std::vector<double> logs;
    for (size_t i = 0; i < n; ++i) {
      const std::optional<double> a = metric_value(first.repetitions[i].summary, key);
      const std::optional<double> b = metric_value(second.repetitions[i].summary, key);
      if (a && b && *a > 0 && *b > 0) logs.push_back(std::log(*b / *a));
    }
    if (logs.size() < 2) continue;
    const double m = mean(logs);
    double ss = 0;
    for (double l : logs) ss += (l - m) * (l - m);
    out.push_back({text, int(logs.size()), std::sqrt(ss / double(logs.size() - 1))});
  }
  return out;
}

NoiseProfile measure_noise(const ResultsFile& runs, const std::vector<std::string>& keys) {
  NoiseProfile p;
  p.source = runs.source;
  p.workload = runs.workload_name;
  p.machine_key = machine_key(runs);
  p.created_at = runs.created_at;
  p.commit = runs.manifest.value("git", nlohmann::json::object()).value("commit", "unknown");
  const PointResult& point = runs.points.at(0);
  p.repetitions = int(point.repetitions.size());
  for (const std::string& text : keys) {
    const MetricKey key = parse_metric_key(text);
    std::vector<double> values;
    for (const RepetitionResult& rep : point.repetitions) {
      if (const std::optional<double> v = metric_value(rep.summary, key)) values.push_back(*v);
    }
    if (values.size() < 2) continue;
    MetricNoise m;
    m.key = text;
    m.repetitions = int(values.size());
    m.mean = mean(values);
    double ss = 0;
    for (double v : values) ss += (v - m.mean) * (v - m.mean);
    m.stddev = std::sqrt(ss / double(values.size() - 1));
    m.cv = m.mean != 0 ? m.stddev / std::fabs(m.mean) : 0;
    p.metrics.push_back(m);
  }
  return p;
}

double detectable_change(double cv, int repetitions, double alpha, double power) {
  const double efficiency = 3 / std::numbers::pi;
  const double z = normal_quantile(1 - alpha) + normal_quantile(power);
  return z * cv * std::sqrt(2 / (double(repetitions) * efficiency));
}

std::optional<std::string> threshold_warning(const NoiseProfile& noise, const RuleEvaluation& e,
                                             double alpha) {
  const MetricNoise* m = noise.find(e.rule.metric.text);
  const int n = int(std::min(e.baseline_values.size(), e.candidate_values.size()));
  if (!m || n < 2 || e.effective_threshold <= 0) return std::nullopt;
  const double detectable = detectable_change(m->cv, n, alpha);
  if (detectable <= e.effective_threshold) return std::nullopt;
  return "threshold " + percent(e.effective_threshold) + " is below the " + percent(detectable) +
         " that this metric's run-to-run spread (" + percent(m->cv) + ", calibrated over " +
         std::to_string(m->repetitions) + " runs) lets " + std::to_string(n) +
         " repetitions per side detect; expect inconclusive verdicts, or use " +
         std::to_string(repetitions_needed(m->cv, e.effective_threshold, alpha)) + " repetitions";
}

nlohmann::json noise_to_json(const NoiseProfile& noise) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const MetricNoise& m : noise.metrics) {
    metrics.push_back({{"key", m.key},
                       {"repetitions", m.repetitions},
                       {"mean", m.mean},
                       {"stddev", m.stddev},
                       {"cv", m.cv}});
  }
  nlohmann::json doc = {{"schema", kNoiseSchema},
                        {"workload", noise.workload},
                        {"machine_key", noise.machine_key},
                        {"created_at", noise.created_at},
                        {"commit", noise.commit},
                        {"repetitions", noise.repetitions},
                        {"source", noise.source},
                        {"metrics", metrics},
                        {"verdict_rates", noise.verdict_rates}};
  if (!noise.paired.empty()) {
    nlohmann::json paired = nlohmann::json::array();
    for (const PairedNoise& m : noise.paired) {
      paired.push_back({{"key", m.key}, {"pairs", m.pairs}, {"log_sd", m.log_sd}});
    }
    doc["paired"] = {{"seconds_per_pair", noise.seconds_per_pair}, {"metrics", paired}};
  }
  return doc;
}

namespace {

void read_paired(const nlohmann::json& doc, const std::string& path, NoiseProfile& p) {
  if (!doc.contains("paired")) return;
  const nlohmann::json& paired = doc.at("paired");
  p.seconds_per_pair = paired.at("seconds_per_pair").get<double>();
  if (!(std::isfinite(p.seconds_per_pair) && p.seconds_per_pair > 0 &&
        p.seconds_per_pair < 86400)) {
    throw std::runtime_error(path + ": $.paired.seconds_per_pair: must be in (0, 86400] seconds");
  }
  for (const nlohmann::json& m : paired.at("metrics")) {
    PairedNoise n{m.at("key").get<std::string>(), m.at("pairs").get<int>(),
                  m.at("log_sd").get<double>()};
    if (!(std::isfinite(n.log_sd) && n.log_sd >= 0 && n.log_sd < 100) || n.pairs < 2) {
      throw std::runtime_error(path + ": $.paired.metrics: '" + n.key +
                               "' needs pairs >= 2 and a finite log_sd >= 0");
    }
    p.paired.push_back(n);
  }
}

}  // namespace

NoiseProfile load_noise_profile(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  if (!doc.is_object() || doc.value("schema", "") != kNoiseSchema) {
    throw std::runtime_error(path + ": $.schema: expected '" + std::string(kNoiseSchema) +
                             "' (a file written by infergate calibrate)");
  }
  NoiseProfile p;
  try {
    p.source = path;
    p.workload = doc.at("workload").get<std::string>();
    p.machine_key = doc.at("machine_key").get<std::string>();
    p.created_at = doc.value("created_at", "");
    p.commit = doc.value("commit", "");
    p.repetitions = doc.at("repetitions").get<int>();
    for (const nlohmann::json& m : doc.at("metrics")) {
      p.metrics.push_back({m.at("key").get<std::string>(), m.at("repetitions").get<int>(),
                           m.at("mean").get<double>(), m.at("stddev").get<double>(),
                           m.at("cv").get<double>()});
    }
    p.verdict_rates = doc.value("verdict_rates", nlohmann::json::array());
    read_paired(doc, path, p);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": not a valid noise file: " + e.what());
  }
  return p;
}

}  // namespace infergate
