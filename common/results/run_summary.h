// The statistics of one run (one repetition of one sweep point), as the harness computes them.
// Keys in the results file are these names with their unit suffix, e.g. summary.ttft_ms.p95
// (docs/results-schema.md); the metric registry (metric_registry.h) declares each one once, and
// summary_to_json writes them from it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

class SectionReader;

// Percentiles use linear interpolation between closest ranks (numpy's default, as vLLM's
// benchmark): p-th percentile of sorted x[0..n-1] is at rank (n - 1) * p / 100.
struct StatSummary {
  int64_t count = 0;
  double mean = 0, min = 0, p50 = 0, p90 = 0, p95 = 0, p99 = 0, max = 0;
};

// Failed requests of one class ("connection refused", "http status 503", ...).
struct ErrorClass {
  std::string name;           // e.g. "connection refused"
  int64_t count = 0;          // measured requests of this class
  std::string first_message;  // of the first such request in index order
};

struct RunSummary {
  int64_t num_requests = 0;   // measured (non-warm-up) requests
  int64_t num_completed = 0;  // status ok
  int64_t num_errors = 0;
  int64_t num_aborted = 0;
  double error_share = 0;                 // num_errors / num_requests (0 without requests)
  std::vector<ErrorClass> error_classes;  // the errors by class, most frequent first
  double duration_s = 0;  // measured window: first measured scheduled time to last finish
  double request_throughput_rps = 0;
  double output_throughput_tps = 0;
  double total_throughput_tps = 0;  // input + output tokens
  double goodput_rps = 0;           // requests meeting every SLO per second
  double good_fraction = 0;         // of measured requests (errors count as bad)
  StatSummary ttft_ms, tpot_ms, itl_ms, e2e_ms;
  StatSummary send_lag_ms;  // actual send - scheduled send
  StatSummary input_tokens, output_tokens;
  // Reasoning models (docs/metrics.md, "Reasoning models"): time to the first token of the
  // answer, after the thinking, and the thinking's tokens; absent when no measured request's
  // stream carried reasoning.
  std::optional<StatSummary> ttfot_ms, reasoning_tokens;
  double peak_concurrency = 0, mean_concurrency = 0;
  // Filled from telemetry by the driver, not by summarize().
  double peak_memory_bytes = 0;                 // peak process RSS
  std::optional<double> peak_gpu_memory_bytes;  // peak NVML memory in use; absent without NVML
  double utilization_pct = 0;
  double cpu_utilization_pct = 0;
  // The four above describe the server's process when an openai target's server runs on this
  // host (the repetition's server.resource_source says which); the harness's own are these.
  double harness_peak_memory_bytes = 0;
  double harness_cpu_utilization_pct = 0;
  double prefix_cache_hit_rate = 0;
  int64_t preemptions = 0;
  // The engine threads' CPU time per token in decode-only and prefill-only steps (warm-up
  // included): absent without an in-process CPU engine or without such steps.
  std::optional<double> engine_cpu_ms_per_decode_token, engine_cpu_ms_per_prefill_token;
  // The decode steps' CPU line (fixed + per token, by batch size) at a batch of one: per-token
  // CPU without the batching a slow or fast period brings.
  std::optional<double> engine_cpu_ms_per_single_decode_step;
  // Instructions the same threads retired per decoded token in decode-only steps (hardware
  // counters): absent where the kernel gives none.
  std::optional<double> engine_instructions_per_decode_token;
  // The target's weights against the workload's quality baseline (docs/metrics.md, "Quality"),
  // scored once per run and the same in every repetition: absent without a quality section.
  std::optional<double> kl_divergence_mean, kl_divergence_p99;  // nats
  std::optional<double> top1_agreement;                         // fraction of positions
  std::optional<double> perplexity;                             // the target's weights
  // Speculative decoding (docs/speculative.md): draft tokens accepted / verified, and tokens a
  // sequence got per target pass; absent when the engine does not speculate.
  std::optional<double> spec_acceptance_rate, spec_tokens_per_target_pass;
  // Structured output (docs/metrics.md): the share of completed requests whose answer gave the
  // structure asked for (parsed and checked by the harness); absent when none asked.
  std::optional<double> valid_output_rate;
  // A capacity search (load.search, docs/metrics.md "Capacity at the SLO"): the highest load
  // (req/s or users) at which the SLO holds for the goodput share asked, and its bracket (the
  // highest load probed that held, the lowest that did not); absent without a search.
  std::optional<double> capacity_at_slo, capacity_at_slo_low, capacity_at_slo_high;
  // The machine's energy (docs/metrics.md, "Energy"): the joules of the CPU packages and GPUs
  // measured over the repetition, per output token and per request completed in it; absent
  // where neither is exposed (the repetition's `energy` says why).
  std::optional<double> energy_j_per_output_token, energy_j_per_request;
  bool harness_limited = false;
  bool error_share_exceeded = false;  // error_share above the run's --max-error-share (driver)
};

nlohmann::json stat_to_json(const StatSummary& s);
// The repetition's "summary": every metric of the registry, in its order (a missing GPU
// measurement is null). error_classes are written apart, as the repetition's "errors".
nlohmann::json summary_to_json(const RunSummary& s);

// The inverses, checking each value's type by the registry: `r` is the stat's or the summary's
// object. Every metric of the registry must be there (an optional one may be null or absent);
// other keys are not read, and error_classes stay empty (summary_to_json does not write them).
StatSummary read_stat_summary(const SectionReader& r);
RunSummary read_run_summary(const SectionReader& r);

// A repetition's "errors": [{"class", "count", "first_message"}], most frequent first.
nlohmann::json error_classes_to_json(const std::vector<ErrorClass>& classes);
// The inverse, for an array already checked (results_file.cc) or written by the harness.
std::vector<ErrorClass> error_classes_from_json(const nlohmann::json& errors);

}  // namespace infergate
