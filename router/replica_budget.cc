#include "router/replica_budget.h"

#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace infergate {

namespace {

std::string mib(int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.0f MiB", double(bytes) / double(1 << 20));
  return text;
}

int64_t mem_available_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    if (!line.starts_with("MemAvailable:")) continue;
    std::istringstream fields(line.substr(13));
    int64_t kib = 0;
    if (fields >> kib) return kib * 1024;
  }
  return 0;
}

int usable_cpus() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) return 1;
  return std::max(1, CPU_COUNT(&allowed));
}

}  // namespace

MachineBudget this_machine_budget() { return {mem_available_bytes(), usable_cpus()}; }

void check_replica_budget(const std::string& flag_text, int replicas, const ReplicaFootprint& each,
                          const MachineBudget& machine) {
  const int by_cpus = kReplicasPerCpu * machine.cpus;
  if (replicas > by_cpus) {
    throw std::invalid_argument(
        flag_text + " is more replicas than this machine can run: at most " +
        std::to_string(by_cpus) + " (" + std::to_string(kReplicasPerCpu) + " per CPU, " +
        std::to_string(machine.cpus) + " CPUs this process may use)");
  }
  if (machine.available_bytes <= 0 || each.total() <= 0) return;
  const int64_t by_memory = machine.available_bytes / each.total();
  if (replicas > by_memory) {
    throw std::invalid_argument(
        flag_text + " needs about " + mib(int64_t(replicas) * each.total()) + " (" +
        std::to_string(replicas) + " x " + mib(each.total()) + ": weights " + mib(each.weights) +
        ", KV pool " + mib(each.kv_pool) + ", process " + mib(each.process) +
        ") and this machine has " + mib(machine.available_bytes) +
        " available (MemAvailable): at most " + std::to_string(by_memory) +
        " replicas; start fewer, or give each a smaller KV pool (--kv-cache-bytes, "
        "--num-kv-blocks)");
  }
}

}  // namespace infergate
