#include "router/slot_waiters.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace infergate {

namespace net = boost::asio;

net::awaitable<void> SlotWaiters::wait(std::chrono::steady_clock::time_point deadline) {
  auto timer = std::make_shared<net::steady_timer>(co_await net::this_coro::executor);
  timer->expires_at(std::min(deadline, std::chrono::steady_clock::now() + kRecheck));
  {
    const std::lock_guard lock(mutex_);
    timers_.push_back(timer);
  }
  boost::system::error_code ignored;  // operation_aborted: woken
  co_await timer->async_wait(net::redirect_error(net::use_awaitable, ignored));
  const std::lock_guard lock(mutex_);
  timers_.erase(std::remove(timers_.begin(), timers_.end(), timer), timers_.end());
}

void SlotWaiters::wake_one() {
  std::shared_ptr<net::steady_timer> timer;
  {
    const std::lock_guard lock(mutex_);
    if (timers_.empty()) return;
    timer = timers_.front();
    timers_.pop_front();
  }
  // On the timer's own executor (the waiter's strand): timers are not thread-safe.
  net::post(timer->get_executor(), [timer] { timer->cancel(); });
}

int SlotWaiters::waiting() const {
  const std::lock_guard lock(mutex_);
  return int(timers_.size());
}

}  // namespace infergate
