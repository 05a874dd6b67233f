// A target's own statistics as the results file records them (docs/results-schema.md, "Engine
// statistics"): the repetition's "engine" object and each timeline sample's. to_json is the one
// writer of both places and read_target_stats the one reader.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/results/parallel_record.h"
#include "common/results/section_reader.h"

namespace infergate {

// An in-process engine's counters, in the results file's units (bytes, ms).
struct EngineStatsRecord {
  int64_t weights_bytes = 0, kv_cache_bytes = 0, workspace_bytes = 0, memory_total_bytes = 0;
  double kv_usage = 0;  // fraction of KV blocks held
  int64_t num_kv_blocks = 0, num_running = 0, num_waiting = 0, num_preemptions = 0;
  int64_t prefix_cache_queries = 0, prefix_cache_hits = 0;
  int64_t num_steps = 0;
  int64_t last_step_tokens = 0;  // tokens scheduled in the latest step
  int64_t total_scheduled_tokens = 0, num_generated_tokens = 0;
  // Where the steps' time went, summed over steps (the report's step breakdown).
  double schedule_ms = 0, execute_ms = 0, sample_ms = 0, update_ms = 0;
  double injected_delay_ms = 0;  // part of execute_ms: debug.inject_decode_delay_us
  // Multi-rank and simulated executors' layout and costs; absent on one in-process rank.
  std::optional<ParallelRecord> parallel;
  // The engine threads' CPU time in steps (docs/metrics.md, "Engine CPU time"); absent when the
  // engine's work runs elsewhere (other ranks, a GPU).
  struct Cpu {
    double total_ms = 0;
    double decode_steps_ms = 0, prefill_steps_ms = 0;  // steps of only that kind
    int64_t decode_steps_tokens = 0, prefill_steps_tokens = 0;
    // The decode steps' CPU as a line in the batch size (fixed + per token); absent until the
    // decode steps span two batch sizes.
    struct Line {
      double fixed_ms = 0, per_token_ms = 0;
    };
    std::optional<Line> decode_cost;
    // Instructions and cycles retired in user space by the same threads (perf_event_open),
    // or why this machine gives none.
    struct HardwareCounts {
      int64_t instructions = 0, cycles = 0;
      int64_t decode_steps_instructions = 0, decode_steps_cycles = 0, decode_steps_tokens = 0;
    };
    std::optional<HardwareCounts> hardware;
    std::string hardware_unavailable;  // when hardware is absent
  };
  std::optional<Cpu> cpu;
  // Speculative decoding's counters (docs/speculative.md); absent when the engine does not
  // speculate.
  struct SpecDecode {
    int64_t num_drafts = 0;  // verifications: a sequence with draft tokens in a step
    int64_t num_draft_tokens = 0, num_accepted_tokens = 0;
    std::vector<int64_t> accepted_per_position;  // index 0: the first draft token
    std::string method;                          // speculative.method
    double propose_ms = 0;  // proposing drafts (n-gram scans, draft model forwards)
    // Tokens a sequence got per pass in which it sampled: 1 without speculation (0: no pass).
    double tokens_per_target_pass = 0;
  };
  std::optional<SpecDecode> spec_decode;

  double prefix_cache_hit_rate() const {
    return prefix_cache_queries > 0 ? double(prefix_cache_hits) / double(prefix_cache_queries) : 0;
  }
};

// An HTTP client's counters (docs/metrics.md, "HTTP targets").
struct HttpClientRecord {
  int64_t requests = 0, in_flight = 0, peak_in_flight = 0, ok = 0, aborted = 0;
  std::map<int, int64_t> by_http_status;  // answers with a failing status, by status
  int64_t connect = 0, timeout = 0, connection_lost = 0, incomplete_stream = 0, stream_error = 0;
  int64_t connections_opened = 0, connections_reused = 0, stale_retries = 0;
  int64_t closed_idle = 0;  // idle connections found closed by the server, dropped unused
  // https:// targets: the TLS handshakes of new connections, timed apart (a request on a new
  // connection waits for its handshake, so its TTFT includes it; docs/metrics.md).
  int64_t tls_handshakes = 0;
  double tls_handshake_ms_mean = 0, tls_handshake_ms_max = 0;
  int64_t usage_mismatches = 0, usage_missing = 0;
  std::vector<std::string> mismatch_examples;  // the first few
  // usage.prompt_tokens against the client's count (the ids sent; a chat message through the
  // server's tokenizer and template, when the client knows them).
  int64_t prompt_checked = 0, prompt_mismatches = 0;
  std::vector<std::string> prompt_mismatch_examples;  // the first few

  int64_t errors() const;  // every failed request, whatever the kind
};

// A router target's view of its router and replicas (docs/router.md, "Metrics"), read off the
// router at the end of a repetition, and the faults the harness injected into it.
struct RouterRecord {
  struct Replica {
    std::string url;
    int64_t routed = 0, succeeded = 0, failed = 0, restarts = 0;
    double prefix_hit_rate = 0;  // achieved, by the router's model of its cache
    int64_t in_flight = 0;       // requests at the replica when the router was asked
    bool healthy = false;
  };
  struct Fault {
    int replica = 0;
    int pid = 0;
    double at_ms = 0;       // since the run started
    int64_t in_flight = 0;  // requests the router had at that replica when it was killed
    std::string error;      // why it could not be injected ("" when it was)
  };
  // During a run only the replicas' url, in_flight and healthy are known (timeline samples);
  // the rest is read when the run ends.
  bool live = false;
  std::string policy;
  std::vector<Replica> replicas;
  double prefix_hit_rate_achieved = 0, prefix_hit_rate_oracle = 0;
  int64_t retries = 0, broken_streams = 0, migrations = 0, migrations_failed = 0;
  double migration_delay_mean_ms = 0, migration_delay_max_ms = 0;
  std::vector<Fault> faults;
  // Prefill/decode disaggregation (docs/disaggregation.md): the prefill workers and the KV
  // handoff over the repetition's requests (warm-up included), from the answers' kv_transfer
  // records and the router's counters.
  struct Disaggregation {
    double kv_read_rate_cap_mb_s = 0;  // the decode workers' cap (0: none)
    std::vector<Replica> prefill;      // the prefill workers, as `replicas` the decode workers
    int64_t prefills_exported = 0, prefill_fallbacks = 0;  // the router's counts
    int64_t reads = 0;                                     // answers whose decode worker read KV
    int64_t read_fallbacks = 0;  // reads that failed: the prompt was computed there
    int64_t kv_bytes = 0;        // read in all
    double bandwidth_mb_s = 0;   // kv_bytes over the summed read time
    double read_ms_p50 = 0, read_ms_p95 = 0;
    double prefill_ms_p50 = 0, prefill_ms_p95 = 0;
    // The read's share of the request's time to first token (from leaving the harness), median.
    double ttft_share_p50 = 0;
  };
  std::optional<Disaggregation> disaggregation;
};

// What a target reports: an engine's counters, an HTTP client's (and a router's), or nothing.
struct TargetStats {
  std::optional<EngineStatsRecord> engine;
  std::optional<HttpClientRecord> http_client;
  std::optional<RouterRecord> router;
};

// The engine's fields at the top level, the client's under "http_client", the router's under
// "router"; {} for none.
nlohmann::json to_json(const TargetStats& stats);
// The inverse: what to_json writes, the derived figures (acceptance rate, errors) left to it.
TargetStats read_target_stats(const SectionReader& r);

}  // namespace infergate
