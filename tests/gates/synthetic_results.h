// Results files built in memory for the verdict, baseline and calibration tests: per-repetition
// metric values chosen by the test, a fixed manifest, and the real parser behind them.
#pragma once

#include <map>
#include <random>
#include <string>
#include <vector>

#include "common/results/measured_workload.h"
#include "common/results/results_file.h"
#include "common/results/summary_mean.h"

namespace infergate::gates_test {

// One repetition's summary metrics, e.g. {{"tpot_ms.p95", 20.0}, {"request_throughput_rps", 8}}:
// a dotted name sets a stat inside a stats object.
using RepetitionMetrics = std::map<std::string, double>;

inline nlohmann::json summary_of(const RepetitionMetrics& metrics) {
  nlohmann::json s = nlohmann::json::object();
  for (const auto& [name, value] : metrics) {
    const size_t dot = name.find('.');
    if (dot == std::string::npos) {
      s[name] = value;
    } else {
      s[name.substr(0, dot)][name.substr(dot + 1)] = value;
    }
  }
  return s;
}

inline nlohmann::json test_manifest() {
  return {{"git", {{"commit", "0123456789abcdef0123456789abcdef01234567"}, {"dirty", false}}},
          {"build",
           {{"type", "Release"},
            {"compiler", "GNU 12.2.0"},
            {"cxx_flags", "-O3"},
            {"cuda_toolkit", nullptr}}},
          {"gpu", {{"devices", nlohmann::json::array()}, {"driver_version", nullptr}}},
          {"host",
           {{"cpu_model", "Test CPU(R) 9000"},
            {"logical_cores", 8},
            {"affinity_cores", 8},
            {"memory_bytes", 1 << 30},
            {"os", {{"machine", "x86_64"}}},
            {"hostname", "h"}}}};
}

inline nlohmann::json results_doc(const std::vector<RepetitionMetrics>& reps,
                                  const std::string& workload = "synthetic") {
  nlohmann::json repetitions = nlohmann::json::array();
  std::vector<nlohmann::json> summaries;
  for (size_t i = 0; i < reps.size(); ++i) {
    summaries.push_back(summary_of(reps[i]));
    repetitions.push_back({{"repetition", i}, {"summary", summaries.back()}});
  }
  const nlohmann::json w = {{"name", workload}, {"load", {{"rate", 8.0}}}};
  return {{"schema", "infergate.results/v1"},
          {"created_at", "2026-11-29T00:00:00Z"},
          {"workload", w},
          {"workload_hash", measured_workload_hash(w, "")},
          {"manifest", test_manifest()},
          {"points",
           {{{"sweep", nullptr},
             {"summary", mean_of_summaries(summaries)},
             {"repetitions", repetitions}}}}};
}

// After editing a synthetic document's workload: its hash, as the harness would have written.
inline void rehash(nlohmann::json& doc) {
  doc["workload_hash"] = measured_workload_hash(doc["workload"], "");
}

inline ResultsFile results_of(const std::vector<RepetitionMetrics>& reps,
                              const std::string& workload = "synthetic") {
  return parse_results(results_doc(reps, workload), workload + ".json");
}

// `n` repetitions of one metric drawn around `center` with relative spread `cv`.
inline std::vector<RepetitionMetrics> noisy(const std::string& metric, double center, double cv,
                                            int n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> draw(center, center * cv);
  std::vector<RepetitionMetrics> reps;
  for (int i = 0; i < n; ++i) reps.push_back({{metric, draw(rng)}});
  return reps;
}

}  // namespace infergate::gates_test
