#include "gates/calibrate/calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/results/metric_key.h"

namespace infergate {

namespace {

// Distinct seeds: the A/A and A/B trials draw independent resamples.
constexpr uint64_t kAaSeed = 1;
constexpr uint64_t kAbSeed = 2;

ResamplingPlan plan_of(const CalibrationDesign& d, uint64_t seed) {
  return {d.reps_per_side, d.auto_repeat, d.trials, seed};
}

// The geometric mean of a metric over a point's repetitions; nullopt with fewer than two
// positive values.
std::optional<double> geometric_mean(const PointResult& point, const MetricKey& key) {
  double sum = 0;
  int n = 0;
  for (const RepetitionResult& rep : point.repetitions) {
    const auto v = metric_value(rep.summary, key);
    if (v && *v > 0) sum += std::log(*v), ++n;
  }
  if (n < 2) return std::nullopt;
  return std::exp(sum / n);
}

}  // namespace

std::vector<std::string> rule_metric_keys(const RuleSet& rules, const std::string& workload) {
  std::vector<std::string> keys;
  for (const GateRule& r : rules.rules) {
    if (r.applies_to(workload)) keys.push_back(r.metric.text);
  }
  return keys;
}

CalibrationDesign calibration_design(const RuleSet& rules, int reps_per_side, int auto_repeat,
                                     int trials) {
  int k = reps_per_side;
  if (k <= 0) {
    k = 0;
    for (const GateRule& r : rules.rules) k = std::max(k, r.min_repetitions);
  }
  return {k, auto_repeat, trials};
}

AaCalibration calibrate_aa(const ResultsFile& runs, const RuleSet& rules,
                           const CalibrationDesign& design) {
  AaCalibration aa{measure_noise(runs, rule_metric_keys(rules, runs.workload_name)), {}};
  aa.counts = resampled_verdicts(runs.points[0], nullptr, rules, runs.workload_name,
                                 plan_of(design, kAaSeed));
  aa.noise.verdict_rates = nlohmann::json::array();
  aa.noise.verdict_rates.push_back({{"kind", "A/A"},
                                    {"reps_per_side", design.reps_per_side},
                                    {"auto_repeat", design.auto_repeat},
                                    {"rules", verdict_counts_to_json(aa.counts)}});
  return aa;
}

int64_t slowdown_delay_us(const ResultsFile& runs, double fraction) {
  double step_ms = 0, steps = 0;
  for (const RepetitionResult& rep : runs.points.at(0).repetitions) {
    if (!rep.engine || !rep.engine->engine) {
      throw std::runtime_error("--check-slowdown needs an engine target (no step times in " +
                               runs.source + ")");
    }
    // The engine threads' CPU time where recorded: a busy machine stretches the wall time of a
    // step, not its CPU time, and the injected delay is CPU time too.
    const EngineStatsRecord& e = *rep.engine->engine;
    step_ms += e.cpu ? e.cpu->total_ms : e.execute_ms;
    steps += double(e.num_steps);
  }
  return steps > 0 ? int64_t(step_ms / steps * 1000 * fraction + 0.5) : 0;
}

nlohmann::json measured_change(const ResultsFile& runs, const ResultsFile& slowed,
                               const std::vector<std::string>& keys) {
  nlohmann::json changes = nlohmann::json::object();
  for (const std::string& text : keys) {
    const MetricKey key = parse_metric_key(text);
    const auto a = geometric_mean(runs.points.at(0), key);
    const auto b = geometric_mean(slowed.points.at(0), key);
    if (a && b) changes[text] = *b / *a - 1;
  }
  return changes;
}

std::string format_measured_change(const nlohmann::json& changes) {
  std::string text;
  for (const auto& [key, change] : changes.items()) {
    char figure[32];
    std::snprintf(figure, sizeof(figure), " %+.1f%%", 100 * change.get<double>());
    text += (text.empty() ? "" : ", ") + key.substr(key.find('.') + 1) + figure;
  }
  return text.empty() ? "nothing" : text;
}

int64_t injected_delay_us(const ResultsFile& slowed) {
  return slowed.workload.value(
      nlohmann::json::json_pointer("/target/engine/debug/inject_decode_delay_us"), int64_t{0});
}

std::vector<VerdictCounts> detect_slowdown(const ResultsFile& runs, const ResultsFile& slowed,
                                           const RuleSet& rules, const CalibrationDesign& design,
                                           double fraction, int64_t delay_us, NoiseProfile& noise) {
  std::vector<VerdictCounts> counts = resampled_verdicts(
      runs.points[0], &slowed.points[0], rules, runs.workload_name, plan_of(design, kAbSeed));
  noise.verdict_rates.push_back(
      {{"kind", "injected slowdown"},
       {"fraction", fraction},
       {"delay_us", delay_us},
       {"measured_change",
        measured_change(runs, slowed, rule_metric_keys(rules, runs.workload_name))},
       {"reps_per_side", design.reps_per_side},
       {"auto_repeat", design.auto_repeat},
       {"rules", verdict_counts_to_json(counts)}});
  return counts;
}

}  // namespace infergate
