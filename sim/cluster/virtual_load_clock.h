// The load driver's clock for a simulated target (bench/load/load_clock.h): virtual time that
// moves only inside the driver's waits, from event to event of the simulated workers, on the
// driver's one thread. A wait advances to the next step or KV read that ends, or to its
// deadline, whichever is first, and delivers what ended to the target's events; then the
// timeline is sampled and the supervisor ticks. Nothing reads the wall clock, so the same
// inputs give bit-identical records.
#pragma once

#include <functional>

#include "bench/load/load_clock.h"
#include "sim/cluster/simulated_cluster.h"
#include "sim/cluster/simulated_target.h"

namespace infergate {

class VirtualLoadClock final : public LoadClock {
 public:
  VirtualLoadClock(SimulatedCluster& cluster, SimulatedTarget& target);

  int64_t now_ns() const override { return cluster_.now_ns(); }
  bool concurrent() const override { return false; }
  int64_t start_delay_ns() const override { return 0; }
  bool sleep_until(int64_t deadline_ns, const std::function<bool()>& halted) override;
  void wake_sleeps() override {}
  void wait(std::unique_lock<std::mutex>& lock, int64_t deadline_ns) override;
  void notify_all() override {}
  void set_ticker(int64_t period_ns, std::function<void()> tick) override;

  // Calls `sample` for every `interval_ns` of virtual time from now (the timeline), each with
  // the workers as they are between events; the first at once.
  void set_sampler(int64_t interval_ns, std::function<void(int64_t at_ns)> sample);

 private:
  // One event (or the deadline) further. Throws std::logic_error when the workers stop making
  // progress with requests in flight, or nothing can happen before a wait without a deadline
  // (a simulation bug, never a hang).
  void advance(int64_t deadline_ns);
  void after_advance();

  SimulatedCluster& cluster_;
  SimulatedTarget& target_;
  std::function<void()> tick_;
  int64_t tick_period_ns_ = 0, next_tick_ns_ = 0;
  std::function<void(int64_t)> sample_;
  int64_t sample_interval_ns_ = 0, next_sample_ns_ = 0;
  int idle_advances_ = 0;  // in a row without time moving
};

}  // namespace infergate
