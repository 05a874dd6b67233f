#include "router/replica_supervisor.h"

#include <sched.h>

#include <chrono>
#include <iostream>
#include <stdexcept>

#include "common/util/clock.h"
#include "router/gpu_assignment.h"

namespace infergate {

namespace {

constexpr auto kWatchPeriod = std::chrono::milliseconds(20);

}  // namespace

ReplicaSupervisor::ReplicaSupervisor(SupervisorSettings settings) : settings_(std::move(settings)) {
  for (int i = 0; i < settings_.replicas; ++i) processes_.push_back(start_replica(i));
}

ReplicaSupervisor::~ReplicaSupervisor() { stop(); }

std::unique_ptr<ChildServer> ReplicaSupervisor::start_replica(int replica) const {
  std::vector<std::string> argv = {settings_.program, "serve",  "--host",
                                   "127.0.0.1",       "--port", "0"};
  argv.insert(argv.end(), settings_.serve_args.begin(), settings_.serve_args.end());
  int cpu = -1;
  if (settings_.pin_cpus) {
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    sched_getaffinity(0, sizeof(allowed), &allowed);
    std::vector<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c) {
      if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
    }
    if (!cpus.empty()) cpu = cpus[size_t(settings_.first_replica + replica) % cpus.size()];
  }
  std::vector<std::string> env;
  if (settings_.gpus_per_replica > 0) {
    env.push_back("CUDA_VISIBLE_DEVICES=" + replica_gpus(settings_.gpus, settings_.gpus_per_replica,
                                                         settings_.first_replica + replica));
  }
  return std::make_unique<ChildServer>("replica " + std::to_string(replica), argv,
                                       settings_.start_timeout_s, cpu, env);
}

std::vector<HttpUrl> ReplicaSupervisor::urls() const {
  const std::lock_guard lock(mutex_);
  std::vector<HttpUrl> out;
  for (const auto& p : processes_) out.push_back(p->url());
  return out;
}

pid_t ReplicaSupervisor::pid(int replica) const {
  const std::lock_guard lock(mutex_);
  return processes_.at(size_t(replica))->pid();
}

void ReplicaSupervisor::watch(ReplicaSet& set) {
  for (int i = 0; i < int(processes_.size()); ++i) set.set_pid(i, pid(i));
  watcher_ = std::thread([this, &set] { watch_loop(set); });
}

void ReplicaSupervisor::watch_loop(ReplicaSet& set) {
  while (!stopping_) {
    for (size_t i = 0; i < processes_.size() && !stopping_; ++i) {
      std::string how;
      {
        const std::lock_guard lock(mutex_);
        processes_[i]->drain_output();
        how = processes_[i]->ended();
      }
      if (!how.empty()) restart(int(i), how, set);
    }
    std::this_thread::sleep_for(kWatchPeriod);
  }
}

void ReplicaSupervisor::restart(int replica, const std::string& how, ReplicaSet& set) {
  set.down(replica);
  std::cerr << "router: replica " << replica << " " << how << "; restarting it in "
            << settings_.restart_delay_s << " s" << std::endl;
  const auto until =
      std::chrono::steady_clock::now() + seconds_to_duration(settings_.restart_delay_s);
  while (!stopping_ && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(kWatchPeriod);
  }
  while (!stopping_) {
    try {
      std::unique_ptr<ChildServer> p = start_replica(replica);
      const HttpUrl url = p->url();
      const pid_t new_pid = p->pid();
      {
        const std::lock_guard lock(mutex_);
        processes_[size_t(replica)] = std::move(p);
      }
      set.restarted(replica, url, new_pid);
      std::cerr << "router: replica " << replica << " restarted at " << url.text() << std::endl;
      return;
    } catch (const std::exception& e) {
      std::cerr << "router: " << e.what() << "; trying again in " << settings_.restart_delay_s
                << " s" << std::endl;
      std::this_thread::sleep_for(std::chrono::duration<double>(settings_.restart_delay_s));
    }
  }
}

void ReplicaSupervisor::stop() {
  stopping_ = true;
  if (watcher_.joinable()) watcher_.join();
  const std::lock_guard lock(mutex_);
  for (auto& p : processes_) p->terminate();
}

}  // namespace infergate
