#include "bench/http/http_client_stats.h"

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

nlohmann::json HttpClientStats::to_json() const {
  nlohmann::json status = nlohmann::json::object();
  nlohmann::json examples;
  int64_t http_errors = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto& [code, n] : by_status_) status[std::to_string(code)] = n, http_errors += n;
    examples = mismatch_examples_;
  }
  const int64_t errors = http_errors + connect_ + timeout_ + lost_ + incomplete_ + stream_error_;
  return {{"requests", started_.load()},
          {"in_flight", in_flight_.load()},
          {"peak_in_flight", peak_in_flight_.load()},
          {"ok", ok_.load()},
          {"aborted", aborted_.load()},
          {"errors", errors},
          {"errors_by_kind",
           {{"http_status", status},
            {"connect", connect_.load()},
            {"timeout", timeout_.load()},
            {"connection_lost", lost_.load()},
            {"incomplete_stream", incomplete_.load()},
            {"stream_error", stream_error_.load()}}},
          {"connections",
           {{"opened", opened_.load()},
            {"reused", reused_.load()},
            {"stale_retries", stale_retries_.load()}}},
          {"usage",
           {{"mismatches", mismatches_.load()},
            {"missing", usage_missing_.load()},
            {"mismatch_examples", examples}}}};
}

}  // namespace infergate
