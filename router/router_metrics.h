// What the router's GET /metrics reports (Prometheus text, prefix "infergate_router:"): requests
// by outcome, retries, streams broken mid-way, refusals, routing decisions by reason, and per
// replica its health, load, counters and the prefix-cache hit rates: achieved (the blocks the
// router expected in the chosen replica's cache) against the oracle (the best any healthy
// replica held), both by the router's model of the caches (docs/router.md, "Metrics").
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "router/policy/replica_set.h"

namespace infergate {

class RouterMetrics {
 public:
  void routed(RouteReason reason) { ++reasons_.at(size_t(reason)); }
  void answered(int http_status);  // every answer a client got, errors included
  void retried() { ++retries_; }
  void broken_stream() { ++broken_streams_; }
  // A stream migrated: its next replica's first event went out `seconds` after it was asked.
  void resumed(double seconds);
  void migration_failed() { ++migrations_failed_; }  // no replica could go on
  void client_gone() { ++clients_gone_; }
  // Prefill/decode: one request's prefill phase (prefill_phase.h).
  void prefilled(bool fell_back, int attempts, double seconds, int64_t kv_bytes);

  // `prefill`: the prefill workers' (empty unless disaggregated).
  std::string render(const std::vector<ReplicaSnapshot>& replicas, int queued,
                     const std::vector<ReplicaSnapshot>& prefill = {}) const;

 private:
  static constexpr size_t kReasons = size_t(RouteReason::kOnlyOneHealthy) + 1;
  std::array<std::atomic<int64_t>, kReasons> reasons_{};
  std::atomic<int64_t> ok_ = 0, client_errors_ = 0, refused_429_ = 0, unavailable_503_ = 0,
                       other_5xx_ = 0;
  std::atomic<int64_t> retries_ = 0, broken_streams_ = 0, clients_gone_ = 0;
  std::atomic<int64_t> migrations_ = 0, migrations_failed_ = 0;
  std::atomic<int64_t> migration_delay_ns_ = 0, migration_delay_max_ns_ = 0;
  std::atomic<int64_t> prefills_ = 0, prefill_fallbacks_ = 0, prefill_attempts_ = 0,
                       prefill_ns_ = 0, prefill_kv_bytes_ = 0;
};

}  // namespace infergate
