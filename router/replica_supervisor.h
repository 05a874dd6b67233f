// `infergate router --replicas N`: the router starts N `infergate serve` processes on loopback
// and keeps them running. A replica that dies is taken out of rotation at once, restarted after
// --restart-delay-s (on a new port, with an empty cache) and let back in by its health check.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/http/child_server.h"
#include "router/policy/replica_set.h"

namespace infergate {

struct SupervisorSettings {
  std::string program;                  // the infergate executable
  std::vector<std::string> serve_args;  // after `serve --host 127.0.0.1 --port 0`
  int replicas = 1;
  double start_timeout_s = 300;
  double restart_delay_s = 1;
  bool pin_cpus =
      false;  // replica i runs on CPU first_replica + i mod the CPUs this process may use
  int first_replica = 0;  // another supervisor's replicas take the CPUs and GPUs before
  // With gpus_per_replica > 0, replica i sees GPUs of `gpus` through CUDA_VISIBLE_DEVICES
  // (router/gpu_assignment.h, as replica first_replica + i).
  int gpus_per_replica = 0;
  std::vector<std::string> gpus;
};

class ReplicaSupervisor {
 public:
  // Starts every replica, one after another, and waits until each listens. Throws
  // std::runtime_error naming the replica that could not start (the others are stopped).
  explicit ReplicaSupervisor(SupervisorSettings settings);
  ~ReplicaSupervisor();  // stop()

  std::vector<HttpUrl> urls() const;
  // Watches the replicas on a thread of its own, reporting deaths and restarts to `set`.
  void watch(ReplicaSet& set);
  // Stops watching, then terminates every replica.
  void stop();
  pid_t pid(int replica) const;  // for fault injection and tests

 private:
  std::unique_ptr<ChildServer> start_replica(int replica) const;
  void watch_loop(ReplicaSet& set);
  void restart(int replica, const std::string& how, ReplicaSet& set);

  SupervisorSettings settings_;
  mutable std::mutex mutex_;  // guards processes_ (pid() is asked from other threads)
  std::vector<std::unique_ptr<ChildServer>> processes_;
  std::atomic<bool> stopping_ = false;
  std::thread watcher_;
};

}  // namespace infergate
