// A workload's run-to-run noise on one machine, measured by `infergate calibrate` (an A/A test:
// the same build run N times) and stored beside its baseline, so `compare` can warn when a rule's
// threshold is below what that noise and the repetition count can detect (docs/gates.md).
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

inline constexpr const char* kNoiseSchema = "infergate.noise/v1";

struct MetricNoise {
  std::string key;  // "summary.tpot_ms.p95"
  int repetitions = 0;
  double mean = 0, stddev = 0;  // over repetitions (sample standard deviation)
  double cv = 0;                // stddev / |mean|: the relative run-to-run spread
};

// The spread of a metric's log ratio between two runs of one build made next to each other
// (`calibrate --paired`): what a paired A/B (gates/ab) has to see through.
struct PairedNoise {
  std::string key;
  int pairs = 0;
  double log_sd = 0;  // sample standard deviation of log(second / first)
};

struct NoiseProfile {
  std::string source;  // the file it was read from, or the A/A results it was measured on
  std::string workload, machine_key, created_at, commit;
  int repetitions = 0;
  std::vector<MetricNoise> metrics;
  nlohmann::json verdict_rates = nlohmann::json::array();  // A/A rule verdicts (calibrate)
  // From `calibrate --paired` only (empty otherwise): per-metric paired noise and the wall time
  // of one pair of runs, which `infergate ab` plans its pairs with.
  std::vector<PairedNoise> paired;
  double seconds_per_pair = 0;

  const MetricNoise* find(const std::string& key) const;
  const PairedNoise* find_paired(const std::string& key) const;
};

// Spread of each metric in `keys` over the repetitions of the first point of `runs`.
NoiseProfile measure_noise(const ResultsFile& runs, const std::vector<std::string>& keys);

// The paired noise of each metric in `keys` over pairs (first[i], second[i]) of two points with
// the same repetition count; a metric without two positive pairs is left out.
std::vector<PairedNoise> measure_paired_noise(const PointResult& first, const PointResult& second,
                                              const std::vector<std::string>& keys);

// The smallest relative change a one-sided U test at `alpha` detects with probability `power`
// with `repetitions` per side, for a metric of relative spread `cv`: the two-sample normal
// formula (z_{1-alpha} + z_{power}) * cv * sqrt(2 / n), with n scaled by the U test's asymptotic
// efficiency 3/pi.
double detectable_change(double cv, int repetitions, double alpha, double power = 0.8);

// A warning when `e`'s threshold is below what `noise` lets its repetitions detect.
std::optional<std::string> threshold_warning(const NoiseProfile& noise, const RuleEvaluation& e,
                                             double alpha);

nlohmann::json noise_to_json(const NoiseProfile& noise);
// Throws std::runtime_error naming the file and the field.
NoiseProfile load_noise_profile(const std::string& path);

}  // namespace infergate
