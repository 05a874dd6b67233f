#include "engine/comm/deadline_watchdog.h"

#include <algorithm>
#include <chrono>

#include "engine/comm/in_flight_op.h"

namespace infergate {

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

DeadlineWatchdog::DeadlineWatchdog(double timeout_s, Handler on_expiry)
    : timeout_s_(timeout_s), on_expiry_(std::move(on_expiry)) {
  if (timeout_s_ > 0) thread_ = std::thread([this] { watch(); });
}

DeadlineWatchdog::~DeadlineWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DeadlineWatchdog::arm(const char* what, size_t bytes) {
  set_in_flight_op(what);
  if (timeout_s_ <= 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  what_ = what;
  bytes_ = bytes;
  armed_at_ns_ = now_ns();
}

void DeadlineWatchdog::disarm() {
  set_in_flight_op(nullptr);
  if (timeout_s_ <= 0) return;
  std::lock_guard<std::mutex> lock(mutex_);
  what_ = nullptr;
}

void DeadlineWatchdog::watch() {
  const auto interval = std::chrono::duration<double>(std::clamp(timeout_s_ / 20, 0.001, 0.1));
  const auto timeout_ns = static_cast<int64_t>(timeout_s_ * 1e9);
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    stop_cv_.wait_for(lock, interval);
    if (stop_ || !what_) continue;
    const int64_t waited_ns = now_ns() - armed_at_ns_;
    if (waited_ns < timeout_ns) continue;
    const Expiry expiry{what_, bytes_, timeout_s_, waited_ns * 1e-9};
    what_ = nullptr;  // once per arm()
    lock.unlock();    // the handler may never return (it exits)
    on_expiry_(expiry);
    lock.lock();
  }
}

}  // namespace infergate
