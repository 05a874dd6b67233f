#include "sim/cluster/virtual_load_clock.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace infergate {

namespace {

// Advances in a row at one instant before the simulation counts as stalled.
constexpr int kMaxIdleAdvances = 10'000;

}  // namespace

VirtualLoadClock::VirtualLoadClock(SimulatedCluster& cluster, SimulatedTarget& target)
    : cluster_(cluster), target_(target) {}

bool VirtualLoadClock::sleep_until(int64_t deadline_ns, const std::function<bool()>& halted) {
  while (now_ns() < deadline_ns) {
    if (halted()) return false;
    advance(deadline_ns);
  }
  return !halted();
}

void VirtualLoadClock::wait(std::unique_lock<std::mutex>& lock, int64_t deadline_ns) {
  lock.unlock();  // the events delivered take the driver's lock
  try {
    advance(deadline_ns);
  } catch (...) {
    lock.lock();
    throw;
  }
  lock.lock();
}

void VirtualLoadClock::set_ticker(int64_t period_ns, std::function<void()> tick) {
  tick_ = std::move(tick);
  tick_period_ns_ = period_ns;
  next_tick_ns_ = now_ns() + period_ns;
}

void VirtualLoadClock::set_sampler(int64_t interval_ns, std::function<void(int64_t)> sample) {
  sample_ = std::move(sample);
  sample_interval_ns_ = interval_ns;
  next_sample_ns_ = now_ns();
  after_advance();
}

void VirtualLoadClock::advance(int64_t deadline_ns) {
  cluster_.start_steps();  // what was sent since the last advance
  const int64_t before = now_ns();
  const int64_t next = std::min(cluster_.next_event_ns(), deadline_ns);
  if (next == SimulatedCluster::kNever || idle_advances_ > kMaxIdleAdvances) {
    throw std::logic_error(std::string("simulation: the workers made no progress") +
                           (cluster_.has_unfinished() ? " with requests in flight"
                                                      : " and the load waits for an answer"));
  }
  target_.deliver(cluster_.advance_to(next));
  idle_advances_ = now_ns() == before ? idle_advances_ + 1 : 0;
  after_advance();
}

void VirtualLoadClock::after_advance() {
  while (sample_ && next_sample_ns_ <= now_ns()) {
    sample_(next_sample_ns_);
    next_sample_ns_ += sample_interval_ns_;
  }
  if (tick_ && now_ns() >= next_tick_ns_) {
    next_tick_ns_ = now_ns() + tick_period_ns_;
    tick_();
  }
}

}  // namespace infergate
