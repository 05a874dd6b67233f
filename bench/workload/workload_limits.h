// The largest values a workload may ask for (docs/workload-schema.md, "Limits"). Each is far
// above any meaningful benchmark and far below what would exhaust memory or overflow the
// clocks: the harness holds every planned request and record in memory, and converts times to
// 64-bit nanoseconds.
#pragma once

#include <cstddef>
#include <cstdint>

namespace infergate {

// num_requests + warmup_requests, and an open loop's rate x duration_s + warmup_requests:
// every planned request has a record in memory (a few hundred bytes each).
inline constexpr int64_t kMaxRequests = 1'000'000;
inline constexpr double kMaxDurationS = 86'400;  // one day
// How far into a trace its window may start or end (a year of trace time).
inline constexpr double kMaxTraceSeconds = 365.0 * 86'400;
// Requests per second: one generator thread cannot keep a schedule finer than a microsecond.
inline constexpr double kMaxRate = 1'000'000;
// Gamma shape k: outside [1e-3, 1e3] the gaps are all zero or one huge gap.
inline constexpr double kMinBurstiness = 1e-3;
inline constexpr double kMaxBurstiness = 1e3;
// Closed-loop users, an open loop's max_concurrency and concurrency sweep points.
inline constexpr int kMaxConcurrency = 65'536;
inline constexpr int kMaxRepetitions = 1'000;
// A ramp's stages: each is a summary in every repetition of the results file.
inline constexpr int kMaxRampStages = 1'000;
// The echo target's per-token delay (one second) and an HTTP request's timeout (one day).
inline constexpr double kMaxTokenDelayUs = 1'000'000;
inline constexpr double kMaxTimeoutS = 86'400;
// An openai target's server_metrics: scrape interval, path length, an explicit pid (the
// kernel's largest pid_max).
inline constexpr int kMinScrapeIntervalMs = 50;
inline constexpr int kMaxScrapeIntervalMs = 60'000;
inline constexpr size_t kMaxServerMetricsPathBytes = 256;
inline constexpr int kMaxPid = 4'194'304;
// An openai target's own headers: how many, a name's and a value's length.
inline constexpr size_t kMaxTargetHeaders = 32;
inline constexpr size_t kMaxHeaderNameBytes = 64;
inline constexpr size_t kMaxHeaderValueBytes = 4096;
// An openai target's reasoning_span tags ("<think>", "</think>").
inline constexpr size_t kMaxThinkTagBytes = 64;
// A router target's replicas, each a process with its own engine on this machine.
inline constexpr int kMaxRouterReplicas = 64;
inline constexpr size_t kMaxFaults = 64;
// Points of one sweep: each is a whole measured run (with its repetitions and warmup), so
// 10,000 of them would run for hours with one line of output; larger studies are several files.
inline constexpr size_t kMaxSweepPoints = 100;
// One request's prompt + output tokens on the echo and openai targets (the engine target is
// held to its model's max_model_len instead).
inline constexpr int kMaxRequestTokens = 1'048'576;
// Prompt tokens the whole dataset holds in memory (1 GiB of token ids); the shared prefixes
// are held to it too.
inline constexpr int64_t kMaxDatasetTokens = int64_t(1) << 28;

// A quality section's chunks and context: each chunk is two forward passes of `context`
// tokens, so the bound keeps the evaluation to hours, not days, on a CPU.
inline constexpr int64_t kMaxQualityChunks = 10'000;
inline constexpr int64_t kMaxQualityContext = 1'048'576;

}  // namespace infergate
