#include "kernels/cpu/thread_pool.h"

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <stdexcept>
#include <string>
#include <system_error>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace infergate {

namespace {

// Long enough to bridge the serial work between two loops of a decode step (norms, sampling),
// short enough not to burn a core when the engine is idle.
constexpr auto kSpinTime = std::chrono::microseconds(300);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

}  // namespace

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads <= 0) {
    num_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  }
  if (num_threads > kMaxThreads) {
    throw std::invalid_argument("thread pool: " + std::to_string(num_threads) +
                                " threads asked for; the maximum is " +
                                std::to_string(kMaxThreads));
  }
  workers_.reserve(size_t(num_threads - 1));
  worker_tids_ = std::make_unique<std::atomic<pid_t>[]>(size_t(num_threads));
  for (int i = 1; i < num_threads; ++i) {
    try {
      workers_.emplace_back([this, i] { worker_loop(i); });
    } catch (const std::system_error& e) {
      // A joinable std::thread destroyed unjoined would call std::terminate.
      stop_and_join();
      throw std::runtime_error("thread pool: the system refused to start thread " +
                               std::to_string(i + 1) + " of " + std::to_string(num_threads) + " (" +
                               e.what() + "); ask for fewer threads");
    }
    clockid_t clock{};
    // Fails only for a thread that has already exited; a worker runs until the pool stops.
    if (pthread_getcpuclockid(workers_.back().native_handle(), &clock) == 0) {
      worker_clocks_.push_back(clock);
    }
  }
}

int64_t ThreadPool::workers_cpu_ns() const {
  int64_t total = 0;
  for (const clockid_t clock : worker_clocks_) {
    timespec ts{};
    if (clock_gettime(clock, &ts) == 0) total += int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
  }
  return total;
}

std::vector<pid_t> ThreadPool::worker_tids() const {
  std::vector<pid_t> tids;
  for (size_t i = 0; i < workers_.size(); ++i) {
    pid_t tid;
    while ((tid = worker_tids_[i].load(std::memory_order_acquire)) == 0) std::this_thread::yield();
    tids.push_back(tid);
  }
  return tids;
}

ThreadPool::~ThreadPool() { stop_and_join(); }

void ThreadPool::stop_and_join() {
  stop_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (auto& t : workers_) t.join();
  workers_.clear();
  worker_clocks_.clear();
}

void ThreadPool::run_chunk(int index) {
  const int64_t parts = size();
  const int64_t begin = n_ * index / parts;
  const int64_t end = n_ * (index + 1) / parts;
  if (begin < end) invoker_(fn_, begin, end);
}

void ThreadPool::run(int64_t n, Invoker invoker, const void* fn) {
  if (n <= 0) return;
  if (workers_.empty() || n == 1) {
    invoker(fn, 0, n);
    return;
  }
  n_ = n;
  invoker_ = invoker;
  fn_ = fn;
  pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  // seq_cst: pairs with the sleeper's increment-then-recheck (no lost wake-up).
  generation_.fetch_add(1);
  if (sleepers_.load() > 0) generation_.notify_all();
  run_chunk(0);
  for (int spins = 0; pending_.load(std::memory_order_acquire) != 0; ++spins) {
    if (spins < 4096) {
      cpu_relax();
    } else {
      std::this_thread::yield();  // a worker was preempted; let it run
    }
  }
}

void ThreadPool::worker_loop(int index) {
  worker_tids_[size_t(index - 1)].store(pid_t(::gettid()), std::memory_order_release);
  uint64_t seen = 0;
  for (;;) {
    const auto spin_until = std::chrono::steady_clock::now() + kSpinTime;
    uint64_t now = generation_.load(std::memory_order_acquire);
    for (int i = 0; now == seen; ++i) {
      cpu_relax();
      if ((i & 63) == 63 && std::chrono::steady_clock::now() >= spin_until) {
        sleepers_.fetch_add(1);
        generation_.wait(seen);  // returns at once if generation_ moved meanwhile
        sleepers_.fetch_sub(1);
      }
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    if (stop_.load(std::memory_order_acquire)) return;
    run_chunk(index);
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace infergate
