// A workload file, parsed: what load hits which target, with everything needed to reproduce
// the run. Schema "infergate.workload/v1", documented in docs/workload-schema.md.
#pragma once

#include <cmath>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bench/workload/load_mode.h"
#include "common/random/splitmix64.h"
#include "engine/core/engine_config.h"
#include "engine/model/model_loader.h"

namespace infergate {

// A distribution of token counts. normal and lognormal are given by the mean and standard
// deviation of the length itself (not of its logarithm); samples are rounded, then clamped to
// [min, max] (max 0: no upper bound).
struct LengthDistribution {
  enum class Kind { kFixed, kUniform, kNormal, kLognormal };
  Kind kind = Kind::kFixed;
  int value = 128;    // fixed
  double mean = 0;    // normal, lognormal
  double stddev = 0;  // normal, lognormal
  int min = 1;        // uniform lower bound (inclusive); clamp for normal/lognormal
  int max = 0;        // uniform upper bound (inclusive); clamp for normal/lognormal
};

struct SharedPrefixSpec {
  int num_prefixes = 0;   // distinct prefixes; 0: none
  int prefix_tokens = 0;  // length of each prefix (prepended to the sampled input length)
  double fraction = 0;    // share of requests that start with one of them
};

// A replayed trace (dataset type "trace", bench/dataset/trace_dataset.h).
struct TraceSpec {
  double speedup = 1;      // trace time / this = run time
  double start_s = 0;      // the window, in seconds from the trace's first record
  double end_s = 0;        // 0: to the trace's end
  int max_requests = 0;    // 0: every record in the window
  int block_tokens = 512;  // mooncake: the tokens one hash id stands for
};

// The trace formats bench/dataset/trace_reader.h reads.
inline const std::vector<std::string>& trace_format_names() {
  static const std::vector<std::string> names = {"mooncake", "azure", "burstgpt"};
  return names;
}

// Multi-turn conversations (dataset type "sessions", bench/dataset/session_dataset.h).
struct SessionsSpec {
  int num_sessions = 16;                 // synthetic: conversations
  LengthDistribution turns{.value = 4};  // synthetic: turns a conversation has
  int system_prompt_tokens = 0;          // synthetic: one system prompt every session starts with
};

struct DatasetSpec {
  std::string type = "synthetic";  // synthetic | jsonl | trace | sessions
  LengthDistribution input_tokens;
  LengthDistribution output_tokens;
  SharedPrefixSpec shared_prefix;
  std::string path;               // jsonl, trace: relative to the workload file's folder
  std::string format = "tokens";  // jsonl: tokens | text | sharegpt; trace: mooncake | azure |
                                  // burstgpt
  TraceSpec trace;
  SessionsSpec sessions;
  std::optional<uint64_t> seed;  // default: the workload seed
};

// A router target's replicas and router (bench/targets/router_target.h, docs/router.md).
struct RouterTargetSpec {
  int replicas = 2;  // `infergate serve` processes, each an engine of the target's model and engine
  std::string policy = "prefix-aware";  // round-robin | least-outstanding | prefix-aware
  double restart_delay_s = 1;           // a killed replica comes back after this
  bool pin_replicas = false;            // replica i on CPU i (mod the CPUs the run may use)
  // Disaggregated when >= 1: that many of the replicas are prefill workers, the rest decode
  // workers (docs/disaggregation.md); 0: every replica does both.
  int prefill_replicas = 0;
  double kv_read_rate_mb_s = 0;  // the decode workers' KV reads capped at this (0: no cap)
};

// A simulated target (docs/simulator.md): the real engine over sim/'s executor, in virtual time.
struct SimulatedTargetSpec {
  std::string model;        // a sim/models name, a synthetic preset, or a config.json path
  std::string hardware;     // a sim/hardware name or a .json path
  std::string calibration;  // a calibration file (`infergate sim calibrate`); "": defaults
  // > 0: the KV pool is what fits in this fraction of one device's memory after weights and
  // workspace (vLLM's gpu_memory_utilization); 0: the engine config's pool, as a real engine
  // of that config sizes it (kv_cache_bytes or num_kv_blocks).
  double memory_utilization = 0;
  // The weights' format as simulated: any engine weight_dtype, or "fp8" (e4m3 weights, which
  // the CPU engine does not run); "": the engine config's weight_dtype.
  std::string weight_dtype;
  // With a `router` object: replicas (and prefill workers) behind the router's policies, read
  // into TargetSpec::router; without one, one engine.
  bool routed = false;
};

// An openai target's server observed during the run (docs/workload-schema.md): its Prometheus
// /metrics scraped into a timeline, and its process (when it runs on this host) sampled.
struct ServerMetricsSpec {
  bool scrape = true;             // scrape `path`; a server without one is said unavailable
  std::string path = "/metrics";  // below the target's URL prefix
  int interval_ms = 500;          // between scrapes (and process samples)
  std::string dialect = "auto";   // auto | infergate | vllm | sglang | llamacpp
  int pid = 0;                    // 0: the process listening on a loopback URL's port

  bool is_default() const {
    return scrape && path == "/metrics" && interval_ms == 500 && dialect == "auto" && pid == 0;
  }
};

struct TargetSpec {
  std::string type = "engine";  // engine | echo (zero-cost, for measuring the harness) |
                                // openai (an OpenAI-compatible server over HTTP) |
                                // router (`infergate router` over engine replicas, over HTTP) |
                                // simulated (the engine on simulated hardware, sim/)
  ModelSource model;
  EngineConfig engine;
  SimulatedTargetSpec simulated;
  // echo: emits output tokens with no model; optional per-token delay to shape timings.
  double echo_token_delay_us = 0;
  // openai (bench/targets/openai_target.h): the server, the model and API to ask for.
  std::string url;                  // http://HOST[:PORT][/PREFIX], the server's root
  std::string model_name;           // "" : the first model GET /v1/models lists
  std::string api = "completions";  // completions | chat
  double timeout_s = 600;           // per request; an unfinished request is an error after it
  int32_t vocab_size = 0;           // 0: the server's (GET /v1/models)
  // The server's tokenizer, as a GGUF file or a directory holding tokenizer.json (vLLM bench's
  // --tokenizer): text datasets are tokenized with it, chat prompts counted with its template.
  std::optional<ModelSource> tokenizer;
  // openai: the server's side of the run (its /metrics and process).
  ServerMetricsSpec server_metrics;
  // openai: headers sent with every request (auth gateways), as written: "${NAME}" in a value is
  // the environment variable's, read when the run starts (bench/http/target_access.h).
  std::vector<std::pair<std::string, std::string>> headers;
  // openai with an https:// url: verify the server's certificate (against ca_file, a PEM file,
  // else the system's CAs).
  bool tls_verify = true;
  std::string tls_ca_file;
  // openai: a reasoning model's thinking inside the answer's text, between these tags
  // (target.reasoning_span, e.g. "<think>" and "</think>"); empty: reasoning comes only in its
  // own field (docs/metrics.md, "Reasoning models").
  std::string think_open, think_close;
  // router: the model and engine above are each replica's; api and timeout_s as openai's.
  RouterTargetSpec router;
};

// A fault injected into a router target's run: replica `kill_replica` is SIGKILLed `at_s`
// seconds after the run starts, or when the harness sends its `after_requests`-th request
// (exactly one of the two); the router restarts it after router.restart_delay_s.
struct FaultSpec {
  int kill_replica = 0;
  double at_s = 0;         // > 0, or 0 when after_requests is given
  int after_requests = 0;  // >= 1, or 0 when at_s is given
};

// A load that rises within one run (docs/workload-schema.md, "Ramps"): load.rate (open) or
// load.concurrency (closed) goes from `from` to `to` over `stages` stages of `stage_s` seconds.
// "steps" holds stage i at from + (to - from) * i / (stages - 1); "linear" rises continuously
// (a closed loop: one user more every stages * stage_s / (to - from + 1) seconds). Metrics are
// kept per stage.
struct RampSpec {
  std::string shape = "steps";  // steps | linear
  double from = 1;
  double to = 1;
  int stages = 2;
  double stage_s = 10;

  double duration_s() const { return stages * stage_s; }
};

// The over-saturation stop of a ramp (docs/metrics.md, "Ramps and saturation"): as each stage
// ends, its requests are judged (those still unfinished by their age so far, a lower bound);
// past any bound, no further request is sent and the run records which stage saturated.
struct SaturationStopSpec {
  std::optional<double> ttft_p95_ms;
  std::optional<double> e2e_p95_ms;
  std::optional<double> error_share;

  bool empty() const { return !ttft_p95_ms && !e2e_p95_ms && !error_share; }
};

// A capacity search (docs/workload-schema.md, "Capacity search"; docs/metrics.md "Capacity at
// the SLO"): the highest load.rate (open) or load.concurrency (closed) at which the workload's
// SLO holds for `goodput_share` of the requests, bisected between `from` and `to` over probes of
// `requests_per_probe` requests each, or interpolated between the fixed loads `at`.
struct CapacitySearchSpec {
  double from = 0, to = 0;  // the range searched (both 0 with `at`)
  std::vector<double> at;   // or: these loads, ascending, and no bisection
  double goodput_share = 0.99;
  int requests_per_probe = 0;  // resolved: ceil(10 / (1 - goodput_share)) unless given
  double precision = 0.05;     // stop when high / low - 1 <= precision
  int max_probes = 20;
  double cliff_factor = 3;  // TTFT P99 rising this much between adjacent loads is a cliff

  bool fixed() const { return !at.empty(); }
  // The probes' size by default: at the capacity, 1 - share of the requests miss the SLO, and
  // ten of them make the share's rank a quantile rather than one or two outliers.
  static int default_requests(double share) { return int(std::ceil(10 / (1 - share) - 1e-9)); }
  // The fewest a probe may have: one request past the share's rank.
  static int min_requests(double share) { return int(std::ceil(1 / (1 - share) - 1e-9)); }
};

struct LoadSpec {
  LoadMode mode = LoadMode::kClosed;
  int concurrency = 1;              // closed: simultaneous users
  double rate = 1.0;                // open: requests per second
  std::string arrival = "poisson";  // open: constant | poisson | gamma
  double burstiness = 1.0;          // gamma: shape k; 1 = Poisson, < 1 burstier, > 1 smoother
  int num_requests = 0;             // measured requests (exactly one of num_requests, duration_s)
  double duration_s = 0;            // or: send for this long
  int warmup_requests = 0;          // sent first, excluded from statistics
  int max_concurrency = 0;          // open: cap on in-flight requests; 0 = none
  double think_time_s = 0;          // sessions: from an answer's end to the next turn's send
  std::optional<RampSpec> ramp;     // open and closed: the rate or users rise in stages
  SaturationStopSpec stop_when;     // with a ramp only
  std::optional<CapacitySearchSpec> search;  // open and closed: probes give the rate or users
};

inline constexpr const char* kSweepReplicas = "target.router.replicas";
inline constexpr const char* kSweepPrefillReplicas = "target.router.prefill_replicas";
inline constexpr const char* kSweepKvReadRate = "target.router.kv_read_rate_mb_s";
// Engine targets that speculate: tokens proposed per step at each point, 0 for speculation off
// (on and off measured in one run, docs/speculative.md).
inline constexpr const char* kSweepSpecTokens = "target.engine.speculative.num_tokens";
// Workloads with structured_output: 0 sends the same requests without their structure (no
// ignore_eos either, answers not judged), 1 with it: the constraint's cost in one run.
inline constexpr const char* kSweepStructured = "structured_output.enabled";
inline constexpr double kMaxKvReadRateMbS = 1e6;

struct SweepSpec {
  std::string field;  // load.rate | load.concurrency | target.router.{replicas, prefill_replicas,
                      // kv_read_rate_mb_s} (router targets) | kSweepSpecTokens
  std::vector<double> values;
};

struct SloSpec {
  std::optional<double> ttft_ms;
  std::optional<double> tpot_ms;
  std::optional<double> e2e_ms;
};

// What the harness records beside the metrics. CUPTI tracing costs the GPU work some time, so it
// is part of what is measured (the hash covers it; docs/workload-schema.md).
struct TelemetrySpec {
  bool cupti = false;  // kernel and memcpy activity per repetition (bench/telemetry/cupti_tracer.h)
};

// Quality of the target's weights (its engine's weight_dtype) against the same model at
// `baseline_dtype`, scored on a text once per run as `infergate eval` does (docs/metrics.md,
// "Quality"); the figures land in every repetition's summary for gate rules of kind "quality".
struct QualitySpec {
  std::string text;                    // relative to the workload file's folder
  std::string baseline_dtype = "f32";  // f32 | f16 | bf16 | a block format (weight_dtype's)
  int64_t context = 256;               // tokens per chunk; the second half is scored
  int64_t chunks = 4;                  // chunks to score; 0: as many as the text fills
};

// Structured output (docs/workload-schema.md, `structured_output`): the requests carry the
// fields of a JSONL file's lines (bench/dataset/structured_requests.h) and their answers are
// judged, for the valid-output rate. openai and router targets.
struct StructuredOutputSpec {
  std::string path;  // relative to the workload file's folder
};

// The requests' sampling (docs/workload-schema.md, `sampling`): greedy unless a temperature
// is given. A sampled request carries its own seed (from the workload's seed and its index in
// the dataset), so every repetition and every sweep point draws alike.
struct SamplingSpec {
  double temperature = 0;  // 0: greedy
  int top_k = 0;           // 0: off
  double top_p = 1;        // 1: off
  uint64_t seed = 0;       // the workload's seed (not a key of `sampling`): request seeds

  bool is_default() const { return temperature == 0 && top_k == 0 && top_p == 1; }
  // The seed of the request at `index` of the dataset, for a workload seeded `seed`: a
  // SplitMix64 step, kept below 2^63 (OpenAI's `seed` is a signed integer).
  static uint64_t request_seed(uint64_t seed, uint64_t index) {
    return splitmix64_finalize(seed * kGoldenGamma + index + 1) >> 1;
  }
};

struct Workload {
  std::string schema = "infergate.workload/v1";
  std::string name;
  std::string description;
  TargetSpec target;
  DatasetSpec dataset;
  LoadSpec load;
  std::optional<SweepSpec> sweep;
  std::vector<FaultSpec> faults;  // router targets only
  SloSpec slo;
  TelemetrySpec telemetry;
  std::optional<QualitySpec> quality;                     // engine targets only
  std::optional<StructuredOutputSpec> structured_output;  // openai and router targets only
  SamplingSpec sampling;
  int repetitions = 1;
  uint64_t seed = 0;
  bool record_requests = false;  // keep per-request records in the results file

  std::string source_path;             // the file it came from ("" if built in code)
  std::vector<std::string> overrides;  // "--set path=value" as given, in order
  nlohmann::json resolved;             // every field with defaults filled: what results record
  std::string hash;                    // of `resolved`, to refuse comparing different workloads
};

}  // namespace infergate
