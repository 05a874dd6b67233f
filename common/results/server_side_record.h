// The server's side of an openai target's repetition (`repetitions[].server`,
// docs/results-schema.md "The server's side"; definitions in docs/metrics.md): the server's
// /metrics over the run, its process, the transport's round trip, the client-versus-server TTFT
// cross-check and the scraped timeline, as a struct with its one writer and its one reader.
// bench/driver/server_observation.h fills it; the report reads it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/section_reader.h"

namespace infergate {

// The server's own latency histogram over the run (last scrape minus first), in ms.
struct ServerLatency {
  int64_t count = 0;
  std::optional<double> mean, p50, p95, p99;  // null without observations
};

struct ServerMetricsRecord {
  std::string url;  // the /metrics URL
  bool scraped = true;
  bool available = false;                         // at least one scrape was read through a dialect
  std::optional<std::string> unavailable_reason;  // null when available
  std::optional<std::string> dialect;             // null before any scrape was read
  int64_t interval_ms = 0;
  int64_t scrapes = 0, failed_scrapes = 0;
  std::optional<std::string> first_failure;
  std::optional<ServerLatency> ttft_ms, itl_ms;  // null without the histogram
};

struct ServerProcessRecord {
  std::optional<int64_t> pid;                     // null when not found
  std::optional<std::string> found_by;            // null without a pid
  std::optional<std::string> unavailable_reason;  // null when the process was read
  std::optional<double> peak_rss_bytes, cpu_pct_mean;
  std::string cpu_time_source;
  std::optional<double> peak_gpu_memory_bytes;  // NVML, this pid; null without NVML
};

struct ServerTransportRecord {
  std::string path;
  int64_t round_trips = 0;
  double rtt_p50_ms = 0, rtt_p95_ms = 0;
  std::optional<std::string> failure;  // the first failed GET's error
};

// The client's TTFT against the server's own (bench/metrics/ttft_cross_check.h computes it).
struct TtftCrossCheck {
  double client_mean_ms = 0;  // sent -> first token, every ok request the server saw
  int64_t client_count = 0;
  double server_mean_ms = 0;  // the server's histogram: sum / count over the run
  int64_t server_count = 0;
  double difference_ms = 0;  // client - server (positive: the transport and client add time)
  double bound_ms = 0;       // 3 x RTT P95 + 1 ms
  bool disagreement = false;
  std::string reason;  // one sentence saying why (or why not)
};

// One scrape, relative to the load's start; each figure only when the server (or its
// process) has it.
struct ServerTimelineSample {
  double t_ms = 0;
  std::optional<double> running, waiting, kv_usage, preemptions, prefix_cache_hit_rate;
  std::optional<double> rss_bytes, cpu_pct, gpu_memory_bytes;
};

struct ServerSideRecord {
  std::string resource_source;  // "server pid N" or "harness": what the summary's figures are
  ServerMetricsRecord metrics;
  ServerProcessRecord process;
  ServerTransportRecord transport;
  std::optional<TtftCrossCheck> ttft_cross_check;  // null without the server's TTFT or an RTT
  std::vector<ServerTimelineSample> timeline;
};

nlohmann::json to_json(const ServerSideRecord& server);
// `r` is the "server" object; a member of the wrong type throws ResultsError naming its path.
ServerSideRecord read_server_side_record(const SectionReader& r);

}  // namespace infergate
