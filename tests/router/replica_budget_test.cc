// The bound on how many replicas `router --replicas N` starts (router/replica_budget.h).
#include "router/replica_budget.h"

#include <catch2/catch.hpp>
#include <stdexcept>

namespace infergate {
namespace {

constexpr int64_t kMiB = int64_t(1) << 20;

TEST_CASE("replica budget: at most kReplicasPerCpu replicas per CPU") {
  const ReplicaFootprint each{60 * kMiB, 256 * kMiB, 64 * kMiB};
  const MachineBudget machine{1024 * 1024 * kMiB, 2};
  CHECK_NOTHROW(check_replica_budget("--replicas 8", 8, each, machine));
  CHECK_THROWS_WITH(check_replica_budget("--replicas 9", 9, each, machine),
                    Catch::Contains("--replicas 9 is more replicas than this machine can run: "
                                    "at most 8 (4 per CPU, 2 CPUs"));
}

TEST_CASE("replica budget: the replicas' memory must fit MemAvailable, numbers named") {
  const ReplicaFootprint each{60 * kMiB, 256 * kMiB, 64 * kMiB};  // 380 MiB
  const MachineBudget machine{1000 * kMiB, 64};
  CHECK_NOTHROW(check_replica_budget("--replicas 2", 2, each, machine));
  CHECK_THROWS_WITH(
      check_replica_budget("--replicas 3", 3, each, machine),
      Catch::Contains("--replicas 3 needs about 1140 MiB (3 x 380 MiB: weights 60 MiB, KV pool "
                      "256 MiB, process 64 MiB) and this machine has 1000 MiB available "
                      "(MemAvailable): at most 2 replicas"));
}

TEST_CASE("replica budget: unknown memory or footprint leaves only the CPU bound") {
  CHECK_NOTHROW(check_replica_budget("--replicas 4", 4, {}, {1 * kMiB, 1}));
  CHECK_NOTHROW(check_replica_budget("--replicas 4", 4, {kMiB, kMiB, kMiB}, {0, 1}));
}

TEST_CASE("replica budget: this machine has CPUs and, on Linux, MemAvailable") {
  const MachineBudget m = this_machine_budget();
  CHECK(m.cpus >= 1);
  CHECK(m.available_bytes > 0);
}

}  // namespace
}  // namespace infergate
