// Engine thread -> HTTP session: events queue under a mutex, and a handler posted to the
// session's strand wakes the coroutine waiting in next(). The wake-up is a timer cancelled on
// that strand, so checking the queue and starting to wait can never miss a push.
#pragma once

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <mutex>
#include <vector>

#include "engine/service/engine_service.h"

namespace infergate {

class EventChannel : public std::enable_shared_from_this<EventChannel> {
 public:
  // `executor`: the session's strand.
  explicit EventChannel(boost::asio::any_io_executor executor);

  // Any thread.
  void push(ServiceEvent event);
  // On the session's strand: everything queued, waiting for at least one event.
  boost::asio::awaitable<std::vector<ServiceEvent>> next();

 private:
  boost::asio::steady_timer wake_;
  std::mutex mutex_;
  std::vector<ServiceEvent> queue_;
};

}  // namespace infergate
