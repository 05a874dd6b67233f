#include "router/replica_watch.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <chrono>

#include "common/util/clock.h"

namespace infergate {

namespace {

// How often an attempt looks at its replica's health: a stopped replica is left within this of
// --health-timeout-s, and a thousand streams cost a few thousand cheap wake-ups a second.
constexpr auto kTick = std::chrono::milliseconds(250);

}  // namespace

struct ReplicaWatch::State {
  State(const boost::asio::any_io_executor& executor, const ReplicaSet& s, const ReplicaLease& l,
        double quiet_s, boost::beast::tcp_stream& c)
      : timer(executor),
        set(s),
        replica(l.replica),
        failed_checks(l.failed_checks),
        quiet(seconds_to_duration(quiet_s)),
        stream(&c) {}

  boost::asio::steady_timer timer;
  const ReplicaSet& set;
  int replica;
  uint64_t failed_checks;
  std::chrono::steady_clock::duration quiet;
  std::chrono::steady_clock::time_point last_progress = std::chrono::steady_clock::now();
  boost::beast::tcp_stream* stream;  // null once the attempt is over
  bool fired = false;
};

namespace {

void arm(const std::shared_ptr<ReplicaWatch::State>& state);

void check(const std::shared_ptr<ReplicaWatch::State>& state) {
  if (state->stream == nullptr || state->fired) return;
  const bool failed_since = state->set.failed_checks(state->replica) != state->failed_checks;
  const bool silent = std::chrono::steady_clock::now() - state->last_progress >= state->quiet;
  if (!failed_since || !silent) {
    arm(state);
    return;
  }
  state->fired = true;
  boost::system::error_code ignored;
  // Shut down, not only cancelled: a read started after this fails too.
  state->stream->socket().shutdown(boost::asio::ip::tcp::socket::shutdown_both, ignored);
  state->stream->cancel();
}

void arm(const std::shared_ptr<ReplicaWatch::State>& state) {
  state->timer.expires_after(kTick);
  state->timer.async_wait([state](const boost::system::error_code& ec) {
    if (!ec) check(state);
  });
}

}  // namespace

ReplicaWatch::ReplicaWatch(const boost::asio::any_io_executor& executor, const ReplicaSet& set,
                           const ReplicaLease& lease, double quiet_s,
                           boost::beast::tcp_stream& stream)
    : state_(std::make_shared<State>(executor, set, lease, quiet_s, stream)) {
  arm(state_);
}

ReplicaWatch::~ReplicaWatch() {
  state_->stream = nullptr;  // the handler may still run (it holds state_): it must not touch it
  state_->timer.cancel();
}

void ReplicaWatch::progressed() { state_->last_progress = std::chrono::steady_clock::now(); }

bool ReplicaWatch::fired() const { return state_->fired; }

}  // namespace infergate
