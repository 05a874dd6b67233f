// The server's side of an openai target's repetition (docs/metrics.md, "The server's side"):
// the transport's round trip measured before the load, the server's /metrics and process
// sampled during it (bench/telemetry/server_sampler.h), and afterwards the repetition's
// "server" section (common/results/server_side_record.h): the timeline, the server's own TTFT and
// ITL over the run, its process's peak memory and CPU, and the client-versus-server TTFT
// cross-check. When the process is found, the summary's resource figures become the server's.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "bench/http/transport_probe.h"
#include "bench/metrics/request_record.h"
#include "bench/telemetry/server_sampler.h"
#include "bench/workload/workload.h"
#include "common/results/run_summary.h"
#include "common/results/server_side_record.h"

namespace infergate {

class ServerObservation {
 public:
  // nullptr unless `target` is an openai target.
  static std::unique_ptr<ServerObservation> for_target(const TargetSpec& target);

  // Before the load: the round trips, the server's process, the first scrape.
  void start();
  void stop();  // after the load: the last scrape

  // The repetition's "server" section; nullopt before start(). With the server's process
  // found, `summary`'s peak_memory_bytes, cpu_utilization_pct, utilization_pct (without a GPU)
  // and peak_gpu_memory_bytes (with NVML) describe it; the harness's stay in harness_*.
  std::optional<ServerSideRecord> finish(RunSummary& summary,
                                         const std::vector<RequestRecord>& records,
                                         int64_t origin_ns) const;

 private:
  ServerObservation(const TargetSpec& target, ServerSamplerOptions options);
  ServerMetricsRecord metrics_record() const;
  ServerProcessRecord process_record(const std::vector<ServerSample>& samples) const;
  void describe_server(RunSummary& summary, const ServerProcessRecord& process) const;
  std::optional<TtftCrossCheck> cross_check(const std::optional<ServerLatency>& ttft,
                                            const std::vector<RequestRecord>& records) const;

  const TargetSpec& target_;
  ServerSamplerOptions options_;
  Nvml nvml_;
  std::string process_detail_;  // how the pid was found, or why there is none
  TransportProbe transport_;
  std::unique_ptr<ServerSampler> sampler_;
};

}  // namespace infergate
