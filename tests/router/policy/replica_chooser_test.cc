// The routing policies: round-robin, the power of two choices and prefix-aware with its
// load-balance rule (router/policy/replica_chooser.h).
#include <catch2/catch.hpp>
#include <map>
#include <numeric>
#include <vector>

#include "router/policy/prefix_hashes.h"
#include "router/policy/replica_chooser.h"

namespace infergate {

namespace {

std::vector<uint64_t> prompt_of_user(int user, int question, int block = 16) {
  std::vector<int32_t> t(256);  // a 192-token system prompt of its own, then the question
  std::iota(t.begin(), t.end(), user * 10000);
  for (size_t i = 192; i < t.size(); ++i) t[i] = question * 1000 + int(i);
  return token_prefix_hashes(t, block);
}

int choose(ReplicaChooser& c, const std::vector<ReplicaLoad>& loads,
           const std::vector<uint64_t>& prefix = {}) {
  const std::optional<RouteDecision> d = c.choose(loads, prefix);
  REQUIRE(d);
  return d->replica;
}

}  // namespace

TEST_CASE("round-robin takes the healthy replicas in turn") {
  ReplicaChooser c(RoutingPolicy::kRoundRobin, 3);
  std::vector<ReplicaLoad> loads(3);
  CHECK(choose(c, loads) == 0);
  CHECK(choose(c, loads) == 1);
  CHECK(choose(c, loads) == 2);
  CHECK(choose(c, loads) == 0);
  loads[1].healthy = false;
  CHECK(choose(c, loads) == 2);
  CHECK(choose(c, loads) == 0);
  CHECK(choose(c, loads) == 2);
}

TEST_CASE("no healthy replica: no decision, whatever the policy") {
  for (const RoutingPolicy p : {RoutingPolicy::kRoundRobin, RoutingPolicy::kLeastOutstanding,
                                RoutingPolicy::kPrefixAware}) {
    ReplicaChooser c(p, 2);
    const std::vector<ReplicaLoad> down = {{false, 0}, {false, 0}};
    CHECK_FALSE(c.choose(down, prompt_of_user(1, 1)));
    const std::vector<ReplicaLoad> one = {{false, 0}, {true, 50}};
    const std::optional<RouteDecision> d = c.choose(one, prompt_of_user(1, 1));
    REQUIRE(d);
    CHECK(d->replica == 1);
    CHECK(d->reason == RouteReason::kOnlyOneHealthy);
  }
}

TEST_CASE("least-outstanding never sends to the busiest replica and spreads over the rest") {
  ReplicaChooser c(RoutingPolicy::kLeastOutstanding, 4, {}, 7);
  const std::vector<ReplicaLoad> loads = {{true, 5}, {true, 9}, {true, 1}, {true, 5}};
  std::map<int, int> count;
  for (int i = 0; i < 3000; ++i) ++count[choose(c, loads)];
  CHECK(count[1] == 0);  // two distinct draws: the busiest always loses
  // The idlest wins every draw it is in: 3 of the 6 pairs.
  CHECK(count[2] > 1350);
  CHECK(count[2] < 1650);
  CHECK(count[0] > 500);  // and the equally loaded ones share the rest
  CHECK(count[3] > 500);
}

TEST_CASE("prefix-aware keeps each user's prefix on one replica and spreads the users") {
  ReplicaChooser c(RoutingPolicy::kPrefixAware, 4);
  std::vector<ReplicaLoad> loads(4);
  std::map<int, int> home;  // user -> replica
  for (int round = 0; round < 5; ++round) {
    for (int user = 0; user < 8; ++user) {
      const std::optional<RouteDecision> d = c.choose(loads, prompt_of_user(user, round));
      REQUIRE(d);
      if (round == 0) {
        CHECK(d->reason == RouteReason::kEmptiestCache);
        home[user] = d->replica;
      } else {
        CHECK(d->replica == home[user]);
        CHECK(d->reason == RouteReason::kPrefixMatch);
        CHECK(d->matched_blocks == 12);  // the 192-token system prompt, 12 blocks of 16
      }
    }
  }
  std::map<int, int> users_per_replica;
  for (const auto& [user, replica] : home) ++users_per_replica[replica];
  CHECK(users_per_replica.size() == 4);
  for (const auto& [replica, users] : users_per_replica) CHECK(users == 2);
}

TEST_CASE("prefix-aware gives way to load when the busiest replica is far ahead") {
  PrefixAwareSettings s;
  s.balance_abs = 8;
  s.balance_rel = 1.5;
  ReplicaChooser c(RoutingPolicy::kPrefixAware, 2, s);
  std::vector<ReplicaLoad> loads(2);
  REQUIRE(choose(c, loads, prompt_of_user(1, 0)) == 0);
  loads[0].outstanding = 8;  // 8 ahead: not more than balance_abs, the match still wins
  CHECK(choose(c, loads, prompt_of_user(1, 1)) == 0);
  loads[0].outstanding = 9;
  loads[1].outstanding = 0;
  const std::optional<RouteDecision> d = c.choose(loads, prompt_of_user(1, 2));
  REQUIRE(d);
  CHECK(d->replica == 1);
  CHECK(d->reason == RouteReason::kLoadImbalance);
  loads[1].outstanding = 7;  // 9 vs 7: within 1.5x, the match (now on both) decides
  CHECK(c.choose(loads, prompt_of_user(1, 3))->reason == RouteReason::kPrefixMatch);
}

TEST_CASE("prefix-aware follows a match only when it covers the cache threshold") {
  PrefixAwareSettings s;
  s.cache_threshold = 0.9;  // the 12 shared blocks of 16 are 75%: not enough
  ReplicaChooser c(RoutingPolicy::kPrefixAware, 2, s);
  std::vector<ReplicaLoad> loads(2);
  CHECK(choose(c, loads, prompt_of_user(1, 0)) == 0);
  const std::optional<RouteDecision> d = c.choose(loads, prompt_of_user(1, 1));
  REQUIRE(d);
  CHECK(d->reason == RouteReason::kEmptiestCache);
  CHECK(d->replica == 1);
}

TEST_CASE("a restarted replica is known to have lost its cache") {
  ReplicaChooser c(RoutingPolicy::kPrefixAware, 2);
  std::vector<ReplicaLoad> loads(2);
  const int home = choose(c, loads, prompt_of_user(3, 0));
  c.replica_restarted(home);
  CHECK(c.index().blocks(home) == 0);
  CHECK(c.index().matched_blocks(prompt_of_user(3, 1))[size_t(home)] == 0);
}

TEST_CASE("routing settings and names outside their ranges are refused by name") {
  CHECK(parse_routing_policy("prefix-aware") == RoutingPolicy::kPrefixAware);
  CHECK_THROWS_WITH(parse_routing_policy("random"),
                    Catch::Contains("'random'") &&
                        Catch::Contains("round-robin, least-outstanding, prefix-aware"));
  PrefixAwareSettings s;
  s.cache_threshold = 1.5;
  CHECK_THROWS_WITH(ReplicaChooser(RoutingPolicy::kPrefixAware, 2, s),
                    Catch::Contains("cache threshold"));
  ReplicaChooser c(RoutingPolicy::kRoundRobin, 2);
  const std::vector<ReplicaLoad> three(3);
  CHECK_THROWS_WITH(c.choose(three, {}), Catch::Contains("loads of 3 replicas for a 2-replica"));
}

}  // namespace infergate
