#include "common/http/read_deadline.h"
#include "common/util/clock.h"

namespace infergate {

ReadDeadline::ReadDeadline(boost::beast::tcp_stream& stream)
    : stream_(stream), timer_(stream.get_executor()) {}

ReadDeadline::~ReadDeadline() { disarm(); }

void ReadDeadline::arm(double seconds) {
  disarm();
  live_ = std::make_shared<bool>(true);
  expired_ = false;
  timer_.expires_after(seconds_to_duration(seconds));
  timer_.async_wait([this, live = live_](boost::system::error_code ec) {
    if (ec || !*live) return;
    expired_ = true;
    boost::system::error_code ignored;
    stream_.socket().cancel(ignored);
  });
}

void ReadDeadline::disarm() {
  if (live_) *live_ = false;
  timer_.cancel();
}

}  // namespace infergate
