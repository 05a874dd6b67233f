// The wall clock under a real target's load run (load_clock.h): the generator sleeps most of
// the way to a scheduled time and spins the rest (a sleep alone overshoots by tens of
// microseconds); the other waits are a condition variable's.
#pragma once

#include <condition_variable>

#include "bench/load/load_clock.h"

namespace infergate {

class WallLoadClock final : public LoadClock {
 public:
  int64_t now_ns() const override;
  bool concurrent() const override { return true; }
  int64_t start_delay_ns() const override { return 1'000'000; }  // a millisecond
  bool sleep_until(int64_t deadline_ns, const std::function<bool()>& halted) override;
  void wake_sleeps() override;
  void wait(std::unique_lock<std::mutex>& lock, int64_t deadline_ns) override;
  void notify_all() override { cv_.notify_all(); }
  void set_ticker(int64_t, std::function<void()>) override {}

 private:
  std::condition_variable cv_;
  // The generator's sleeps, apart from cv_: every target event notifies cv_, and a sleep woken
  // by each would cost the generator a core under load.
  std::mutex sleep_mutex_;
  std::condition_variable sleep_cv_;
};

}  // namespace infergate
