// How many replicas `router --replicas N` may start on this machine, checked before it starts
// any: each needs its memory (the router's estimate of its weights, KV pool and process) out of
// MemAvailable, and no more than kReplicasPerCpu share one of the CPUs the router may use. A
// count beyond either would start engines until the machine runs out of memory or thrashes.
#pragma once

#include <cstdint>
#include <string>

namespace infergate {

inline constexpr int kReplicasPerCpu = 4;

// What one replica is expected to hold, in bytes.
struct ReplicaFootprint {
  int64_t weights = 0;
  int64_t kv_pool = 0;
  int64_t process = 0;  // runtime, HTTP buffers, activations
  int64_t total() const { return weights + kv_pool + process; }
};

struct MachineBudget {
  int64_t available_bytes = 0;  // MemAvailable; 0 when unknown (memory is then not checked)
  int cpus = 1;                 // the CPUs this process may run on
};

// MemAvailable from /proc/meminfo and the CPUs in this process's affinity mask.
MachineBudget this_machine_budget();

// Throws std::invalid_argument naming `flag_text` (e.g. "--replicas 1024"), the limit and the
// numbers behind it when `replicas` replicas of `each` do not fit `machine`.
void check_replica_budget(const std::string& flag_text, int replicas, const ReplicaFootprint& each,
                          const MachineBudget& machine);

}  // namespace infergate
