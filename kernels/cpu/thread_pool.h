// A fixed pool of worker threads for data-parallel loops. The caller takes part in every loop,
// and idle workers spin briefly before sleeping on a futex, because decode issues hundreds of
// short loops per token: a loop must cost about a microsecond, not a wake-up syscall.
#pragma once

#include <sys/types.h>
#include <atomic>
#include <cstdint>
#include <ctime>
#include <functional>
#include <memory>
#include <thread>
#include <type_traits>
#include <vector>

namespace infergate {

class ThreadPool {
 public:
  // A bound on the threads asked for, so a typo fails with a message, not std::terminate.
  static constexpr int kMaxThreads = 1024;

  // num_threads <= 0 means std::thread::hardware_concurrency(). Throws std::invalid_argument
  // above kMaxThreads, and std::runtime_error (having joined the threads it started) when the
  // system refuses to create one.
  explicit ThreadPool(int num_threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // CPU time the workers have used since they started, ns: their thread CPU clocks, so time a
  // hypervisor stole does not count. It includes their brief spin after each loop. The
  // caller's own time is the caller's to read (CLOCK_THREAD_CPUTIME_ID).
  int64_t workers_cpu_ns() const;
  // The workers' kernel thread ids (gettid), for per-thread counters (perf_event_open); waits
  // for a worker that has not yet started to record its own.
  std::vector<pid_t> worker_tids() const;
  // Splits [0, n) into at most size() contiguous, nearly equal ranges and runs fn(begin, end)
  // on each (the caller runs the first); returns when all are done. Not reentrant: fn must not
  // call parallel_for on this pool.
  void parallel_for(int64_t n, const std::function<void(int64_t, int64_t)>& fn) {
    run(n, &invoke<std::function<void(int64_t, int64_t)>>, &fn);
  }
  // The same for any callable, without std::function's allocation.
  template <typename Fn, typename = std::enable_if_t<!std::is_same_v<
                             std::decay_t<Fn>, std::function<void(int64_t, int64_t)>>>>
  void parallel_for(int64_t n, Fn&& fn) {
    run(n, &invoke<std::remove_reference_t<Fn>>, &fn);
  }

 private:
  using Invoker = void (*)(const void* fn, int64_t begin, int64_t end);
  template <typename Fn>
  static void invoke(const void* fn, int64_t begin, int64_t end) {
    (*static_cast<Fn*>(const_cast<void*>(fn)))(begin, end);
  }

  void run(int64_t n, Invoker invoker, const void* fn);
  void run_chunk(int index);
  void worker_loop(int index);
  void stop_and_join();

  std::vector<std::thread> workers_;
  std::vector<clockid_t> worker_clocks_;  // each worker's CPU-time clock
  // Each worker's tid, written by the worker as it starts (0 until then).
  std::unique_ptr<std::atomic<pid_t>[]> worker_tids_;
  // A job is published by bumping generation_; workers that slept are woken only when
  // sleepers_ says someone sleeps, so a busy loop issues no syscall at all.
  std::atomic<uint64_t> generation_{0};
  std::atomic<int> sleepers_{0};
  std::atomic<int> pending_{0};
  std::atomic<bool> stop_{false};
  int64_t n_ = 0;
  Invoker invoker_ = nullptr;
  const void* fn_ = nullptr;
};

}  // namespace infergate
