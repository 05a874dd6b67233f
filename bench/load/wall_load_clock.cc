#include "bench/load/wall_load_clock.h"

#include <chrono>

#include "common/util/clock.h"

namespace infergate {

namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

Clock::time_point time_point_of(int64_t ns) {
  return Clock::time_point{std::chrono::nanoseconds(ns)};
}

}  // namespace

int64_t WallLoadClock::now_ns() const { return infergate::now_ns(); }

bool WallLoadClock::sleep_until(int64_t deadline_ns, const std::function<bool()>& halted) {
  constexpr int64_t kSpinWindow = 200'000;
  if (deadline_ns - now_ns() > kSpinWindow) {
    std::unique_lock<std::mutex> lock(sleep_mutex_);
    if (sleep_cv_.wait_until(lock, time_point_of(deadline_ns - kSpinWindow), halted)) return false;
  }
  while (now_ns() < deadline_ns) {
    if (halted()) return false;
    cpu_relax();  // not yield(): that hands the core away
  }
  return !halted();
}

void WallLoadClock::wake_sleeps() {
  { std::lock_guard<std::mutex> lock(sleep_mutex_); }  // not between a sleep's check and wait
  sleep_cv_.notify_all();
}

void WallLoadClock::wait(std::unique_lock<std::mutex>& lock, int64_t deadline_ns) {
  if (deadline_ns == kForever) {
    cv_.wait(lock);
  } else {
    cv_.wait_until(lock, time_point_of(deadline_ns));
  }
}

}  // namespace infergate
