#include "router/policy/replica_set.h"

#include <algorithm>
#include <stdexcept>

namespace infergate {

ReplicaSet::ReplicaSet(std::vector<HttpUrl> urls, ReplicaSetSettings settings)
    : settings_(settings),
      failed_checks_(urls.size()),
      chooser_(settings.policy, std::max<int>(1, int(urls.size())), settings.prefix,
               settings.seed) {
  if (urls.empty()) throw std::invalid_argument("the router needs at least one replica");
  if (settings.max_outstanding < 1) {
    throw std::invalid_argument("--max-outstanding-per-replica must be >= 1");
  }
  if (settings.breaker_failures < 1) throw std::invalid_argument("--breaker-failures must be >= 1");
  for (HttpUrl& url : urls) {
    Replica r;
    r.url = std::move(url);
    replicas_.push_back(std::move(r));
  }
}

std::optional<ReplicaLease> ReplicaSet::acquire(std::span<const uint64_t> prefix,
                                                std::span<const int> exclude, NoReplica* why) {
  const std::lock_guard lock(mutex_);
  std::vector<ReplicaLoad> loads(replicas_.size());
  bool any_healthy = false;
  for (size_t i = 0; i < replicas_.size(); ++i) {
    const Replica& r = replicas_[i];
    const bool excluded = std::find(exclude.begin(), exclude.end(), int(i)) != exclude.end();
    any_healthy = any_healthy || (r.healthy && !excluded);
    loads[i] = {r.healthy && !excluded && r.outstanding < settings_.max_outstanding, r.outstanding};
  }
  const std::optional<RouteDecision> d = chooser_.choose(loads, prefix);
  if (!d) {
    if (why) *why = any_healthy ? NoReplica::kAllFull : NoReplica::kNoneHealthy;
    return std::nullopt;
  }
  Replica& r = replicas_[size_t(d->replica)];
  ++r.outstanding;
  ++r.counters.routed;
  r.counters.matched_blocks += d->matched_blocks;
  r.counters.best_matched_blocks += d->best_matched_blocks;
  r.counters.prompt_blocks += d->prompt_blocks;
  return ReplicaLease{d->replica, r.url, *d, failed_checks(d->replica)};
}

void ReplicaSet::finish(int replica, bool ok) {
  const std::lock_guard lock(mutex_);
  Replica& r = replicas_.at(size_t(replica));
  --r.outstanding;
  if (ok) {
    ++r.counters.succeeded;
    r.consecutive_failures = 0;
    return;
  }
  ++r.counters.failed;
  if (++r.consecutive_failures >= settings_.breaker_failures && r.healthy) {
    r.healthy = false;  // open: back only once a health check passes
    ++r.counters.breaker_trips;
  }
}

void ReplicaSet::health_checked(int replica, const HttpUrl& checked, bool ok) {
  const std::lock_guard lock(mutex_);
  Replica& r = replicas_.at(size_t(replica));
  if (r.url.text() != checked.text()) return;
  r.healthy = ok;
  if (!ok) ++failed_checks_[size_t(replica)];
  if (ok) r.consecutive_failures = 0;
}

void ReplicaSet::restarted(int replica, HttpUrl url, int pid) {
  const std::lock_guard lock(mutex_);
  Replica& r = replicas_.at(size_t(replica));
  r.url = std::move(url);
  r.pid = pid;
  r.healthy = false;
  r.consecutive_failures = 0;
  ++r.counters.restarts;
  chooser_.replica_restarted(replica);
}

void ReplicaSet::set_pid(int replica, int pid) {
  const std::lock_guard lock(mutex_);
  replicas_.at(size_t(replica)).pid = pid;
}

void ReplicaSet::down(int replica) {
  const std::lock_guard lock(mutex_);
  replicas_.at(size_t(replica)).healthy = false;
  ++failed_checks_.at(size_t(replica));
}

uint64_t ReplicaSet::failed_checks(int replica) const {
  return failed_checks_.at(size_t(replica)).load();
}

HttpUrl ReplicaSet::url(int replica) const {
  const std::lock_guard lock(mutex_);
  return replicas_.at(size_t(replica)).url;
}

bool ReplicaSet::any_healthy() const {
  const std::lock_guard lock(mutex_);
  return std::any_of(replicas_.begin(), replicas_.end(),
                     [](const Replica& r) { return r.healthy; });
}

std::vector<ReplicaSnapshot> ReplicaSet::snapshot() const {
  const std::lock_guard lock(mutex_);
  std::vector<ReplicaSnapshot> out;
  for (const Replica& r : replicas_) {
    out.push_back({r.url.text(), r.pid, r.healthy, r.outstanding, r.counters});
  }
  return out;
}

}  // namespace infergate
