// The watchdog behind every MPI operation's deadline, on real time: it fires once per overrun,
// late by at most its check interval, and never for an operation that finished in time.
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>

#include "engine/comm/deadline_watchdog.h"
#include "engine/comm/in_flight_op.h"

namespace infergate {

namespace {

struct Recorded {
  std::mutex mutex;
  int fired = 0;
  std::string what;
  size_t bytes = 0;
  double waited_s = 0;
};

}  // namespace

TEST_CASE("an operation that outlives its deadline fires the watchdog once, naming it") {
  Recorded r;
  DeadlineWatchdog watchdog(0.2, [&](const DeadlineWatchdog::Expiry& e) {
    std::lock_guard<std::mutex> lock(r.mutex);
    ++r.fired;
    r.what = e.what;
    r.bytes = e.bytes;
    r.waited_s = e.waited_s;
  });
  const auto start = std::chrono::steady_clock::now();
  watchdog.arm("all_reduce", 4096);
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  watchdog.disarm();
  std::lock_guard<std::mutex> lock(r.mutex);
  CHECK(r.fired == 1);
  CHECK(r.what == "all_reduce");
  CHECK(r.bytes == 4096);
  CHECK(r.waited_s >= 0.2);
  CHECK(r.waited_s < 0.2 + 0.5);  // checks every 10 ms here; generous for a loaded machine
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(600));
}

TEST_CASE("operations that finish within the deadline never fire the watchdog") {
  std::atomic<int> fired{0};
  DeadlineWatchdog watchdog(0.3, [&](const DeadlineWatchdog::Expiry&) { ++fired; });
  for (int i = 0; i < 10; ++i) {
    ArmedDeadline armed(watchdog, "barrier", 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // 0.5 s in all, 0.05 s each
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(400));  // disarmed: nothing to fire
  CHECK(fired == 0);
}

TEST_CASE("an armed operation is the process's in-flight operation until disarmed") {
  DeadlineWatchdog no_deadline(0, [](const DeadlineWatchdog::Expiry&) {});
  CHECK(in_flight_op_name() == nullptr);
  {
    ArmedDeadline armed(no_deadline, "send_recv", 8);
    CHECK(std::string(in_flight_op_name()) == "send_recv");
    CHECK(in_flight_op_since_ns() > 0);
  }
  CHECK(in_flight_op_name() == nullptr);
}

}  // namespace infergate
