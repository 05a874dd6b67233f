// What GET /metrics reports, in Prometheus text format under vLLM's metric names (prefix
// "infergate:" instead of "vllm:") wherever the meaning matches, so dashboards built for vLLM
// work by changing the prefix. Latencies are the server's own view: from the moment the
// request was parsed to the moment its tokens were handed to the socket.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "common/kv_transfer/ucx_kv_transport.h"
#include "engine/core/engine.h"
#include "server/prometheus_histogram.h"

namespace infergate {

class ServerMetrics {
 public:
  ServerMetrics();

  void request_admitted(int prompt_tokens);
  void first_token(double seconds_since_arrival);
  void inter_token(double seconds);  // once per output token after the first
  void tokens_generated(int count);
  void request_finished(FinishReason reason, double seconds_since_arrival);
  void request_refused(int http_status);  // 4xx/5xx answered instead of a completion
  // A decode worker's KV read for one request (server/kv_handoff.h): done, or fallen back to
  // computing the prompt here.
  void kv_read(bool fell_back, int64_t bytes, double seconds);
  void kv_blocks_imported(int blocks);

  // The exposition, with gauges and engine counters from `stats` (labels model_name=`model`),
  // and the KV transport's when the server has one (--role prefill or decode).
  std::string render(const std::string& model, const EngineStats& stats,
                     const KvTransportStats* transport = nullptr) const;

 private:
  PrometheusHistogram ttft_, itl_, e2e_;
  std::atomic<int64_t> prompt_tokens_ = 0, generation_tokens_ = 0;
  std::atomic<int64_t> finished_stop_ = 0, finished_length_ = 0, finished_abort_ = 0,
                       finished_error_ = 0;
  std::atomic<int64_t> refused_4xx_ = 0, refused_429_ = 0, refused_5xx_ = 0;
  std::atomic<int64_t> kv_reads_ = 0, kv_read_fallbacks_ = 0, kv_read_bytes_ = 0,
                       kv_read_microseconds_ = 0, kv_blocks_imported_ = 0;
};

// `text` (render()'s) with every "infergate:" metric name under "PREFIX:" instead, in samples
// and in HELP and TYPE comments.
std::string with_metrics_prefix(const std::string& text, const std::string& prefix);

}  // namespace infergate
