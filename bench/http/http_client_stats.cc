#include "bench/http/http_client_stats.h"

#include <algorithm>

namespace infergate {

void HttpClientStats::request_started() {
  started_.fetch_add(1, std::memory_order_relaxed);
  const int64_t now = in_flight_.fetch_add(1) + 1;
  int64_t peak = peak_in_flight_.load();
  while (now > peak && !peak_in_flight_.compare_exchange_weak(peak, now)) {
  }
}

void HttpClientStats::request_ended() { in_flight_.fetch_sub(1); }

void HttpClientStats::failed(HttpFailure kind, int http_status) {
  switch (kind) {
    case HttpFailure::kHttpStatus: {
      std::lock_guard<std::mutex> lock(mutex_);
      ++by_status_[http_status];
      return;
    }
    case HttpFailure::kConnect:
      connect_.fetch_add(1, std::memory_order_relaxed);
      return;
    case HttpFailure::kTimeout:
      timeout_.fetch_add(1, std::memory_order_relaxed);
      return;
    case HttpFailure::kConnectionLost:
      lost_.fetch_add(1, std::memory_order_relaxed);
      return;
    case HttpFailure::kIncomplete:
      incomplete_.fetch_add(1, std::memory_order_relaxed);
      return;
    case HttpFailure::kStreamError:
      stream_error_.fetch_add(1, std::memory_order_relaxed);
      return;
  }
}

void HttpClientStats::usage_mismatch(const std::string& example) {
  mismatches_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mutex_);
  if (mismatch_examples_.size() < kMaxExamples) mismatch_examples_.push_back(example);
}

void HttpClientStats::prompt_count_checked(bool differs, const std::string& example) {
  prompt_checked_.fetch_add(1, std::memory_order_relaxed);
  if (!differs) return;
  prompt_mismatches_.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> lock(mutex_);
  if (prompt_mismatch_examples_.size() < kMaxExamples) prompt_mismatch_examples_.push_back(example);
}

void HttpClientStats::tls_handshake(int64_t ns) {
  std::lock_guard<std::mutex> lock(mutex_);
  ++tls_handshakes_;
  tls_ns_total_ += ns;
  tls_ns_max_ = std::max(tls_ns_max_, ns);
}

HttpClientRecord HttpClientStats::snapshot() const {
  HttpClientRecord r;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    r.by_http_status = by_status_;
    r.mismatch_examples = mismatch_examples_;
    r.prompt_mismatch_examples = prompt_mismatch_examples_;
  }
  r.requests = started_.load();
  r.in_flight = in_flight_.load();
  r.peak_in_flight = peak_in_flight_.load();
  r.ok = ok_.load();
  r.aborted = aborted_.load();
  r.connect = connect_.load();
  r.timeout = timeout_.load();
  r.connection_lost = lost_.load();
  r.incomplete_stream = incomplete_.load();
  r.stream_error = stream_error_.load();
  r.connections_opened = opened_.load();
  r.connections_reused = reused_.load();
  r.stale_retries = stale_retries_.load();
  r.closed_idle = closed_idle_.load();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    r.tls_handshakes = tls_handshakes_;
    if (tls_handshakes_ > 0)
      r.tls_handshake_ms_mean = double(tls_ns_total_) / tls_handshakes_ * 1e-6;
    r.tls_handshake_ms_max = double(tls_ns_max_) * 1e-6;
  }
  r.usage_mismatches = mismatches_.load();
  r.usage_missing = usage_missing_.load();
  r.prompt_checked = prompt_checked_.load();
  r.prompt_mismatches = prompt_mismatches_.load();
  return r;
}

}  // namespace infergate
