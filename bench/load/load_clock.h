// The time a load run is scheduled and measured in, so one load driver (bench/driver/
// load_driver.h) serves real and simulated targets: the wall clock (wall_load_clock.h), where
// the generator sleeps on a thread of its own while the target answers on others, or a
// simulation's virtual clock (sim/cluster/virtual_load_clock.h), which moves only inside the
// driver's waits, on one thread, so the same inputs give bit-identical records.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>

namespace infergate {

class LoadClock {
 public:
  static constexpr int64_t kForever = std::numeric_limits<int64_t>::max();

  virtual ~LoadClock() = default;

  virtual int64_t now_ns() const = 0;
  // The wall clock runs the generator beside the caller; virtual time runs it inline.
  virtual bool concurrent() const = 0;
  // How long after now a run starts (time for a generator thread to get going).
  virtual int64_t start_delay_ns() const = 0;

  // The generator's sleep until a scheduled time: false when `halted()` became true first
  // (woken by wake_sleeps()), however far off the deadline.
  virtual bool sleep_until(int64_t deadline_ns, const std::function<bool()>& halted) = 0;
  virtual void wake_sleeps() = 0;

  // With `lock` (the driver's) held on entry and exit: returns once notified, at the deadline,
  // or spuriously; callers re-check their condition (wait_for below does).
  virtual void wait(std::unique_lock<std::mutex>& lock, int64_t deadline_ns) = 0;
  virtual void notify_all() = 0;

  // A clock that is not concurrent runs `tick` at least every `period_ns` of its time while it
  // advances (the supervisor's work: a stop seen, a ramp's stages judged); the wall clock's
  // supervisor wakes itself, so there it is not kept.
  virtual void set_ticker(int64_t period_ns, std::function<void()> tick) = 0;

  // Waits until `ready()` or the deadline; returns ready().
  bool wait_for(std::unique_lock<std::mutex>& lock, int64_t deadline_ns,
                const std::function<bool()>& ready) {
    while (!ready()) {
      if (now_ns() >= deadline_ns) return false;
      wait(lock, deadline_ns);
    }
    return true;
  }
};

}  // namespace infergate
