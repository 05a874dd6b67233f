// A deadline for reads on one connection. Unlike beast::tcp_stream's own timeouts, which close
// the socket, this only cancels the pending read, so the session can still answer 408 before it
// closes. Lives on the connection's strand, like the session coroutine that arms it.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <chrono>
#include <memory>

namespace infergate {

class ReadDeadline {
 public:
  explicit ReadDeadline(boost::beast::tcp_stream& stream);
  ~ReadDeadline();
  ReadDeadline(const ReadDeadline&) = delete;
  ReadDeadline& operator=(const ReadDeadline&) = delete;

  // From now on, a read still pending `seconds` later is cancelled (operation_aborted).
  void arm(double seconds);
  void disarm();
  bool expired() const { return expired_; }  // since the last arm()

 private:
  boost::beast::tcp_stream& stream_;
  boost::asio::steady_timer timer_;
  // Per arm(): false once disarmed, so a wait that completed just before disarm() (its handler
  // already queued) neither cancels a later read nor touches a destroyed deadline.
  std::shared_ptr<bool> live_;
  bool expired_ = false;
};

}  // namespace infergate
