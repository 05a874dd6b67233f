// The one monotonic clock every timestamp in infergate comes from, and the thread CPU clock.
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>

namespace infergate {

using Clock = std::chrono::steady_clock;

// Nanoseconds on the steady clock (comparable within one process only).
inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

// A timeout or delay given in seconds (flags, settings) as the steady clock's duration.
inline Clock::duration seconds_to_duration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

// CPU time of the calling thread, ns (CLOCK_THREAD_CPUTIME_ID: time spent waiting for a core or
// stolen by a hypervisor does not count).
inline int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

}  // namespace infergate
