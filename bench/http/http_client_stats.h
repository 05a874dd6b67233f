// The openai target's own counters: what its HTTP client did, so a results file shows failures
// and connection behaviour next to the latencies (the repetition's `engine` object holds them
// as `http_client`; docs/metrics.md, "HTTP targets"). Written by the client's event loop,
// read from any thread.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "common/results/target_stats.h"

namespace infergate {

enum class HttpFailure {
  kHttpStatus,      // the server answered with a status other than 200
  kConnect,         // no connection (refused, unreachable, too many open files)
  kTimeout,         // no complete response within target.timeout_s
  kConnectionLost,  // the connection failed or closed mid-response
  kIncomplete,      // the response ended without a finish_reason or data: [DONE]
  kStreamError,     // the stream carried an error event or a payload that is not JSON
};

class HttpClientStats {
 public:
  void request_started();
  void request_ended();  // after any outcome, when its event has gone out
  void ok() { ok_.fetch_add(1, std::memory_order_relaxed); }
  void aborted() { aborted_.fetch_add(1, std::memory_order_relaxed); }
  void failed(HttpFailure kind, int http_status = 0);
  void connection_opened() { opened_.fetch_add(1, std::memory_order_relaxed); }
  void connection_reused() { reused_.fetch_add(1, std::memory_order_relaxed); }
  void stale_connection_retried() { stale_retries_.fetch_add(1, std::memory_order_relaxed); }
  void closed_idle_dropped(int64_t n) { closed_idle_.fetch_add(n, std::memory_order_relaxed); }
  void tls_handshake(int64_t ns);
  // A request whose usage disagreed with its stream; the first few are kept as examples.
  void usage_mismatch(const std::string& example);
  void usage_missing() { usage_missing_.fetch_add(1, std::memory_order_relaxed); }
  // A request whose usage.prompt_tokens was compared with the client's count; when they differ,
  // `example` names both (the first few are kept).
  void prompt_count_checked(bool differs, const std::string& example);

  int64_t in_flight() const { return in_flight_.load(); }
  HttpClientRecord snapshot() const;

 private:
  static constexpr size_t kMaxExamples = 5;
  using Counter = std::atomic<int64_t>;
  Counter started_{0}, in_flight_{0}, peak_in_flight_{0}, ok_{0}, aborted_{0};
  Counter connect_{0}, timeout_{0}, lost_{0}, incomplete_{0}, stream_error_{0};
  Counter opened_{0}, reused_{0}, stale_retries_{0}, closed_idle_{0}, mismatches_{0};
  Counter usage_missing_{0}, prompt_checked_{0}, prompt_mismatches_{0};
  mutable std::mutex mutex_;          // guards the members below
  std::map<int, int64_t> by_status_;  // HTTP status -> count
  int64_t tls_handshakes_ = 0, tls_ns_total_ = 0, tls_ns_max_ = 0;
  std::vector<std::string> mismatch_examples_, prompt_mismatch_examples_;
};

}  // namespace infergate
