// What diagnose reads from one sweep point of a results file (docs/diagnose.md,
// "Measurements"): the summary's latencies, the engine's counters and timeline, per-request fits
// when requests were recorded, and the workload's own settings. A figure the results do not hold
// stays empty, and the rule that needs it says it cannot judge.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "common/results/results_file.h"
#include "gates/diagnose/request_fits.h"

namespace infergate {

struct Latency {
  double p50 = 0, p95 = 0, mean = 0;
};

struct RunMeasurements {
  std::string point;  // "" without a sweep, else e.g. "load.rate=4"
  int repetitions = 0;
  double num_requests = 0;  // measured, per repetition (the point's mean)
  double request_rate = 0;  // completed requests/s (summary.request_throughput_rps)
  Latency ttft, tpot, send_lag;
  double input_tokens_mean = 0, output_tokens_mean = 0;
  double mean_concurrency = 0;
  int harness_limited_repetitions = 0;
  double preemptions = 0;  // per repetition (the point's mean)

  // The engine's (empty for echo and HTTP targets).
  std::optional<double> kv_usage_peak;  // timeline[].engine.kv_usage, largest sample
  std::optional<double> waiting_share;  // share of engine samples with num_waiting > 0
  std::optional<double> running_peak;   // timeline[].engine.num_running, largest sample
  std::optional<double> step_ms;        // engine.step_time_ms summed / num_steps
  std::optional<double> num_kv_blocks;  // engine.num_kv_blocks

  // From the per-request records (empty without them or too few).
  std::optional<LineFit> ttft_by_prompt;   // TTFT ms = intercept + slope x input tokens
  std::optional<LineFit> tpot_by_prefill;  // TPOT ms against prefill tokens per decode token
  bool has_records = false;

  // The workload as it ran (results: workload).
  std::string target_type;      // engine, echo, openai, router, simulated
  nlohmann::json engine;        // workload target.engine (defaults filled by the writer)
  std::string load_mode;        // open, closed, sessions
  double load_rate = 0;         // open loop requests/s; 0 otherwise
  double load_concurrency = 0;  // closed loop users; 0 otherwise
  bool greedy = true;           // sampling.temperature is 0 (or absent)
  // The share of prompt tokens that are a shared prefix, from the dataset's settings
  // (synthetic shared_prefix, sessions' system prompt) and the recorded mean prompt length;
  // empty where the dataset does not say (jsonl, traces).
  std::optional<double> shared_prefix_share;
  std::string shared_prefix_source;  // how it was computed, or why it cannot be

  // A workload engine field, or `fallback` when the resolved workload leaves it out.
  template <typename T>
  T engine_field(const char* key, T fallback) const {
    return engine.is_object() ? engine.value(key, fallback) : fallback;
  }
};

// Reads point `index` of `results`; throws ResultsError naming the file and the JSON path when
// something diagnose needs is missing (a results file of another command, an empty run).
RunMeasurements measure_point(const ResultsFile& results, size_t index);

}  // namespace infergate
