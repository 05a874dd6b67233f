// Simulated time: nanoseconds that move only when a simulated step or the load generator says
// so, which makes a simulated run a pure function of its inputs.
#pragma once

#include <cstdint>

namespace infergate {

class VirtualClock {
 public:
  int64_t now_ns() const { return now_; }
  void advance_ns(int64_t ns) { now_ += ns; }
  // Moves forward to `t` (never back).
  void advance_to(int64_t t) {
    if (t > now_) now_ = t;
  }

 private:
  // One second in: request records read a zero time stamp as "never happened".
  int64_t now_ = 1'000'000'000;
};

}  // namespace infergate
