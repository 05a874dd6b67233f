#include "server/event_channel.h"

#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>

namespace infergate {

namespace net = boost::asio;

EventChannel::EventChannel(net::any_io_executor executor)
    : wake_(executor, net::steady_timer::time_point::max()) {}

void EventChannel::push(ServiceEvent event) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(event));
  }
  net::post(wake_.get_executor(), [self = shared_from_this()] { self->wake_.cancel(); });
}

net::awaitable<std::vector<ServiceEvent>> EventChannel::next() {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!queue_.empty()) {
        std::vector<ServiceEvent> events;
        events.swap(queue_);
        co_return events;
      }
    }
    boost::system::error_code ec;  // operation_aborted: a push woke us
    co_await wake_.async_wait(net::redirect_error(net::use_awaitable, ec));
  }
}

}  // namespace infergate
