// Requests waiting for a replica with room (every healthy one at its in-flight limit). A waiter
// sleeps on its own timer; a finished request wakes the longest waiting one, which then tries
// again. Wake-ups can be missed between a failed try and the wait, so no wait is longer than
// kRecheck: a lost wake-up costs at most that. Thread-safe.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <mutex>

namespace infergate {

class SlotWaiters {
 public:
  static constexpr std::chrono::milliseconds kRecheck{20};

  // Waits until woken or kRecheck (or `deadline`, if sooner) has passed.
  boost::asio::awaitable<void> wait(std::chrono::steady_clock::time_point deadline);
  void wake_one();
  int waiting() const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::shared_ptr<boost::asio::steady_timer>> timers_;
};

}  // namespace infergate
