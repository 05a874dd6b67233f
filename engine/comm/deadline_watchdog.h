// A thread that notices a blocking call outliving its deadline. MPI's blocking collectives have
// no timeout and cannot be cancelled, and their nonblocking twins are up to twice as slow for
// small messages (docs/distributed.md), so the MPI communicator calls the blocking ones and
// arms this watchdog around each: when the deadline passes, `on_expiry` runs on the watchdog's
// thread (the MPI communicator reports and aborts the job there).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>

namespace infergate {

class DeadlineWatchdog {
 public:
  struct Expiry {
    const char* what;  // as armed, e.g. "all_reduce"
    size_t bytes;      // as armed
    double timeout_s;
    double waited_s;  // >= timeout_s
  };
  using Handler = std::function<void(const Expiry&)>;

  // timeout_s <= 0: no deadline (no thread is started). Fires at most once per arm(), at most
  // a twentieth of the timeout (and 100 ms) late.
  DeadlineWatchdog(double timeout_s, Handler on_expiry);
  ~DeadlineWatchdog();
  DeadlineWatchdog(const DeadlineWatchdog&) = delete;
  DeadlineWatchdog& operator=(const DeadlineWatchdog&) = delete;

  // Starts the clock of one operation (`what` must outlive it: a string literal) and records it
  // as the process's in-flight operation (in_flight_op.h); disarm() when it has completed.
  void arm(const char* what, size_t bytes);
  void disarm();
  double timeout_s() const { return timeout_s_; }

 private:
  void watch();

  const double timeout_s_;
  const Handler on_expiry_;
  std::mutex mutex_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  const char* what_ = nullptr;  // null: nothing armed, or already fired
  size_t bytes_ = 0;
  int64_t armed_at_ns_ = 0;
  std::thread thread_;
};

// Arms `watchdog` for the lifetime of the scope.
class ArmedDeadline {
 public:
  ArmedDeadline(DeadlineWatchdog& watchdog, const char* what, size_t bytes) : w_(watchdog) {
    w_.arm(what, bytes);
  }
  ~ArmedDeadline() { w_.disarm(); }
  ArmedDeadline(const ArmedDeadline&) = delete;
  ArmedDeadline& operator=(const ArmedDeadline&) = delete;

 private:
  DeadlineWatchdog& w_;
};

}  // namespace infergate
