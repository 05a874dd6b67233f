// Which replica serves a request (docs/router.md, "Policies"). Each policy is a switch, so the
// suite can measure what each buys:
// - round-robin: the next healthy replica in turn;
// - least-outstanding: the power of two choices, two healthy replicas drawn at random and the
//   one with fewer requests in flight taken (no global scan, no herd on one idle replica);
// - prefix-aware: the replica whose cache most likely holds the prompt's prefix (prefix_index.h),
//   unless load is out of balance. The rule: when the busiest healthy replica has more than
//   balance_abs requests more than the idlest and more than balance_rel times as many, the
//   idlest takes it; else the replica matching the most leading blocks takes it when that is
//   at least cache_threshold of the prompt's blocks; else the replica with the emptiest cache
//   (a new prefix goes where it evicts least), ties to fewer in flight, then the lower index.
//   A prompt without one full block has nothing to match: least-outstanding takes it.
// Not thread-safe: the router makes one decision at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "router/policy/prefix_index.h"

namespace infergate {

enum class RoutingPolicy { kRoundRobin, kLeastOutstanding, kPrefixAware };

const char* to_string(RoutingPolicy p);  // "round-robin", "least-outstanding", "prefix-aware"
// Throws std::invalid_argument naming the allowed values.
RoutingPolicy parse_routing_policy(std::string_view text);

struct ReplicaLoad {
  bool healthy = true;
  int outstanding = 0;  // requests sent and not finished
};

struct PrefixAwareSettings {
  double cache_threshold = 0.3;  // of the prompt's blocks, to follow a match
  int balance_abs = 32;          // in-flight requests
  double balance_rel = 1.5;
  size_t capacity_blocks = 4096;  // each replica's prefix cache, in blocks
};

enum class RouteReason {
  kRoundRobin,
  kLeastOutstanding,
  kPrefixMatch,    // prefix-aware: the best match was good enough
  kEmptiestCache,  // prefix-aware: no match good enough
  kLoadImbalance,  // prefix-aware: load out of balance, the idlest took it
  kOnlyOneHealthy,
};

const char* to_string(RouteReason r);  // "round-robin", "prefix-match", ...

// The block counts are the router's model of the replicas' caches (the index), kept under every
// policy: matched_blocks is the hit the choice expects, best_matched_blocks what knowing every
// replica's cache would have got (the oracle), both out of prompt_blocks.
struct RouteDecision {
  int replica = 0;
  RouteReason reason = RouteReason::kRoundRobin;
  size_t matched_blocks = 0;
  size_t best_matched_blocks = 0;  // over the healthy replicas
  size_t prompt_blocks = 0;
};

class ReplicaChooser {
 public:
  // Throws std::invalid_argument as PrefixIndex does, and for settings outside their ranges.
  ReplicaChooser(RoutingPolicy policy, int replicas, PrefixAwareSettings settings = {},
                 uint64_t seed = 1);

  RoutingPolicy policy() const { return policy_; }
  // loads has one entry per replica. nullopt when none is healthy. Records the prompt's prefix
  // hashes as sent to the chosen replica.
  std::optional<RouteDecision> choose(std::span<const ReplicaLoad> loads,
                                      std::span<const uint64_t> prefix);
  // The replica restarted with an empty cache.
  void replica_restarted(int replica) { index_.clear(replica); }
  const PrefixIndex& index() const { return index_; }

 private:
  int round_robin(std::span<const ReplicaLoad> loads);
  int two_choices(std::span<const ReplicaLoad> loads, int healthy);
  RouteDecision prefix_aware(std::span<const ReplicaLoad> loads, std::span<const uint64_t> prefix,
                             const std::vector<size_t>& matched);

  RoutingPolicy policy_;
  PrefixAwareSettings settings_;
  PrefixIndex index_;
  std::mt19937_64 rng_;
  size_t next_ = 0;  // round-robin's next replica
};

}  // namespace infergate
