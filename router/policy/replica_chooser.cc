#include "router/policy/replica_chooser.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <vector>

namespace infergate {

namespace {

std::vector<int> healthy_replicas(std::span<const ReplicaLoad> loads) {
  std::vector<int> healthy;
  for (size_t i = 0; i < loads.size(); ++i) {
    if (loads[i].healthy) healthy.push_back(int(i));
  }
  return healthy;
}

// The first of `candidates` that is smallest by key, then by in-flight requests.
template <typename Key>
int smallest(const std::vector<int>& candidates, std::span<const ReplicaLoad> loads, Key key) {
  int best = candidates.front();
  for (const int r : candidates) {
    const auto k = key(r), b = key(best);
    if (k < b || (k == b && loads[size_t(r)].outstanding < loads[size_t(best)].outstanding)) {
      best = r;
    }
  }
  return best;
}

void check_settings(const PrefixAwareSettings& s) {
  if (!(s.cache_threshold >= 0 && s.cache_threshold <= 1)) {
    throw std::invalid_argument("the cache threshold must be in [0, 1]");
  }
  if (s.balance_abs < 0) throw std::invalid_argument("the absolute balance must be >= 0");
  if (!(s.balance_rel >= 1)) throw std::invalid_argument("the relative balance must be >= 1");
}

}  // namespace

const char* to_string(RoutingPolicy p) {
  switch (p) {
    case RoutingPolicy::kRoundRobin:
      return "round-robin";
    case RoutingPolicy::kLeastOutstanding:
      return "least-outstanding";
    case RoutingPolicy::kPrefixAware:
      return "prefix-aware";
  }
  return "?";
}

RoutingPolicy parse_routing_policy(std::string_view text) {
  for (const RoutingPolicy p : {RoutingPolicy::kRoundRobin, RoutingPolicy::kLeastOutstanding,
                                RoutingPolicy::kPrefixAware}) {
    if (text == to_string(p)) return p;
  }
  throw std::invalid_argument("routing policy '" + std::string(text) +
                              "' (allowed: round-robin, least-outstanding, prefix-aware)");
}

const char* to_string(RouteReason r) {
  switch (r) {
    case RouteReason::kRoundRobin:
      return "round-robin";
    case RouteReason::kLeastOutstanding:
      return "least-outstanding";
    case RouteReason::kPrefixMatch:
      return "prefix-match";
    case RouteReason::kEmptiestCache:
      return "emptiest-cache";
    case RouteReason::kLoadImbalance:
      return "load-imbalance";
    case RouteReason::kOnlyOneHealthy:
      return "only-one-healthy";
  }
  return "?";
}

ReplicaChooser::ReplicaChooser(RoutingPolicy policy, int replicas, PrefixAwareSettings settings,
                               uint64_t seed)
    : policy_(policy), settings_(settings), index_(replicas, settings.capacity_blocks), rng_(seed) {
  check_settings(settings);
}

std::optional<RouteDecision> ReplicaChooser::choose(std::span<const ReplicaLoad> loads,
                                                    std::span<const uint64_t> prefix) {
  if (loads.size() != size_t(index_.replicas())) {
    throw std::invalid_argument("loads of " + std::to_string(loads.size()) + " replicas for a " +
                                std::to_string(index_.replicas()) + "-replica router");
  }
  const std::vector<int> healthy = healthy_replicas(loads);
  if (healthy.empty()) return std::nullopt;
  // Every policy keeps the index: it is also what the hit-rate figures are measured by.
  const std::vector<size_t> matched = index_.matched_blocks(prefix);
  RouteDecision d;
  if (healthy.size() == 1) {
    d = {healthy.front(), RouteReason::kOnlyOneHealthy};
  } else if (policy_ == RoutingPolicy::kRoundRobin) {
    d = {round_robin(loads), RouteReason::kRoundRobin};
  } else if (policy_ == RoutingPolicy::kLeastOutstanding) {
    d = {two_choices(loads, int(healthy.size())), RouteReason::kLeastOutstanding};
  } else if (prefix.empty()) {  // no full block: nothing to match, nothing to spread by
    d = {two_choices(loads, int(healthy.size())), RouteReason::kLeastOutstanding};
  } else {
    d = prefix_aware(loads, prefix, matched);
  }
  d.matched_blocks = matched[size_t(d.replica)];
  for (const int r : healthy)
    d.best_matched_blocks = std::max(d.best_matched_blocks, matched[size_t(r)]);
  d.prompt_blocks = prefix.size();
  index_.record(d.replica, prefix);
  return d;
}

int ReplicaChooser::round_robin(std::span<const ReplicaLoad> loads) {
  while (!loads[next_ % loads.size()].healthy) ++next_;
  return int(next_++ % loads.size());
}

int ReplicaChooser::two_choices(std::span<const ReplicaLoad> loads, int healthy) {
  // The k-th healthy replica, for k drawn uniformly: two distinct ones.
  const auto kth = [&](int k) {
    for (size_t i = 0; i < loads.size(); ++i) {
      if (loads[i].healthy && k-- == 0) return int(i);
    }
    return -1;
  };
  std::uniform_int_distribution<int> first(0, healthy - 1), second(0, healthy - 2);
  const int a = first(rng_);
  int b = second(rng_);
  if (b >= a) ++b;
  const int ra = kth(a), rb = kth(b);
  return loads[size_t(rb)].outstanding < loads[size_t(ra)].outstanding ? rb : ra;
}

RouteDecision ReplicaChooser::prefix_aware(std::span<const ReplicaLoad> loads,
                                           std::span<const uint64_t> prefix,
                                           const std::vector<size_t>& matched) {
  const std::vector<int> healthy = healthy_replicas(loads);
  int busiest = healthy.front();
  for (const int r : healthy) {
    if (loads[size_t(r)].outstanding > loads[size_t(busiest)].outstanding) busiest = r;
  }
  const int idlest = smallest(healthy, loads, [](int) { return 0; });
  const int most = loads[size_t(busiest)].outstanding, least = loads[size_t(idlest)].outstanding;
  RouteDecision d;
  if (most - least > settings_.balance_abs && most > settings_.balance_rel * least) {
    d = {idlest, RouteReason::kLoadImbalance};
  } else {
    // The best match, ties to fewer in flight: the smallest by negated match.
    const int best = smallest(healthy, loads, [&](int r) { return -int64_t(matched[size_t(r)]); });
    const size_t m = matched[size_t(best)];
    if (m > 0 && double(m) >= settings_.cache_threshold * double(prefix.size())) {
      d = {best, RouteReason::kPrefixMatch};
    } else {
      d = {smallest(healthy, loads, [&](int r) { return index_.blocks(r); }),
           RouteReason::kEmptiestCache};
    }
  }
  return d;
}

}  // namespace infergate
