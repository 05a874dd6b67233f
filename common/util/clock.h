// The one monotonic clock every timestamp in infergate comes from.
#pragma once

#include <chrono>
#include <cstdint>

namespace infergate {

using Clock = std::chrono::steady_clock;

// Nanoseconds on the steady clock (comparable within one process only).
inline int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch())
      .count();
}

}  // namespace infergate
