// The router's replicas and what it knows of each: its URL (a restarted replica may come back on
// another port), health, requests in flight, the circuit breaker and counters. Every choice of a
// replica goes through here, under one lock, so the policy sees consistent loads. Thread-safe.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "common/http/http_url.h"
#include "router/policy/replica_chooser.h"

namespace infergate {

struct ReplicaSetSettings {
  RoutingPolicy policy = RoutingPolicy::kPrefixAware;
  PrefixAwareSettings prefix;
  int max_outstanding = 256;  // per replica; a replica this busy gets no more until one ends
  int breaker_failures = 3;   // consecutive failed requests that take a replica out of rotation
  uint64_t seed = 1;
};

// What one replica has done, for /metrics and the results.
struct ReplicaCounters {
  uint64_t routed = 0;     // requests sent to it (retries included)
  uint64_t succeeded = 0;  // answered in full
  uint64_t failed = 0;     // transport failures, timeouts, 5xx or garbage
  uint64_t breaker_trips = 0;
  uint64_t restarts = 0;
  uint64_t matched_blocks = 0;  // the router's model: blocks expected in its cache
  uint64_t best_matched_blocks = 0;
  uint64_t prompt_blocks = 0;
};

struct ReplicaSnapshot {
  std::string url;
  int pid = 0;  // the process, when the router supervises it
  bool healthy = false;
  int outstanding = 0;
  ReplicaCounters counters;
};

// A replica chosen for one attempt; give it back with ReplicaSet::finish().
struct ReplicaLease {
  int replica = 0;
  HttpUrl url;
  RouteDecision decision;
  uint64_t failed_checks = 0;  // the replica's failed_checks() when it was chosen
};

enum class NoReplica { kNoneHealthy, kAllFull };

class ReplicaSet {
 public:
  // Every replica starts unhealthy: the first health check lets it in. Throws
  // std::invalid_argument for no URL or settings out of range.
  ReplicaSet(std::vector<HttpUrl> urls, ReplicaSetSettings settings);

  size_t size() const { return replicas_.size(); }
  RoutingPolicy policy() const { return settings_.policy; }

  // A healthy replica with room, by the policy, other than those in `exclude` (already tried
  // for this request); counted in flight. Else why not.
  std::optional<ReplicaLease> acquire(std::span<const uint64_t> prefix,
                                      std::span<const int> exclude, NoReplica* why);
  // The attempt ended; `ok` false counts toward the breaker.
  void finish(int replica, bool ok);

  // A health check's answer about the replica at `checked` (ignored if it has moved since).
  void health_checked(int replica, const HttpUrl& checked, bool ok);
  // The replica was restarted (its cache is empty), now at `url` as process `pid`; out of
  // rotation until its health check passes.
  void restarted(int replica, HttpUrl url, int pid);
  void set_pid(int replica, int pid);  // a supervised replica's process
  void down(int replica);              // its process died: out of rotation at once

  // Health checks the replica failed (and deaths), ever: an attempt that saw a lower count
  // when it chose the replica knows the replica has been out of rotation since
  // (router/replica_watch.h). Lock-free: every in-flight attempt asks.
  uint64_t failed_checks(int replica) const;

  HttpUrl url(int replica) const;
  bool any_healthy() const;
  std::vector<ReplicaSnapshot> snapshot() const;

 private:
  struct Replica {
    HttpUrl url;
    int pid = 0;
    bool healthy = false;
    int outstanding = 0;
    int consecutive_failures = 0;
    ReplicaCounters counters;
  };

  ReplicaSetSettings settings_;
  mutable std::mutex mutex_;
  std::vector<Replica> replicas_;
  std::vector<std::atomic<uint64_t>> failed_checks_;  // by replica
  ReplicaChooser chooser_;
};

}  // namespace infergate
