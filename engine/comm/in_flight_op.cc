#include "engine/comm/in_flight_op.h"

#include <atomic>
#include <chrono>

namespace infergate {

namespace {

std::atomic<const char*> g_name{nullptr};
std::atomic<int64_t> g_since_ns{0};
static_assert(std::atomic<const char*>::is_always_lock_free &&
                  std::atomic<int64_t>::is_always_lock_free,
              "a signal handler reads these");

}  // namespace

void set_in_flight_op(const char* name) {
  if (name) {
    const auto now = std::chrono::steady_clock::now().time_since_epoch();
    g_since_ns.store(std::chrono::duration_cast<std::chrono::nanoseconds>(now).count(),
                     std::memory_order_relaxed);
  }
  g_name.store(name, std::memory_order_release);
}

const char* in_flight_op_name() { return g_name.load(std::memory_order_acquire); }

int64_t in_flight_op_since_ns() { return g_since_ns.load(std::memory_order_relaxed); }

}  // namespace infergate
