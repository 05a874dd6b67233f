// Internal: the dynamic loop split shared by the linear kernels' drivers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "kernels/cpu/thread_pool.h"

namespace infergate::detail {

// Below this many multiply-adds a loop runs on the calling thread: waking a worker costs more.
inline constexpr int64_t kMinParallelWork = 1 << 15;

// Runs body(begin, end) over [0, items) in chunks handed out dynamically, about eight per
// thread: on a shared machine one core may be slower, and a static split would wait for it.
template <typename Body>
void parallel_chunks(ThreadPool& pool, int64_t items, int64_t work, Body&& body) {
  const int64_t threads = work < kMinParallelWork ? 1 : pool.size();
  const int64_t chunk = std::max<int64_t>(1, (items + threads * 8 - 1) / (threads * 8));
  const int64_t chunks = (items + chunk - 1) / chunk;
  if (threads == 1 || chunks == 1) {
    body(int64_t{0}, items);
    return;
  }
  std::atomic<int64_t> next{0};
  pool.parallel_for(std::min(threads, chunks), [&](int64_t, int64_t) {
    for (int64_t c = next.fetch_add(1); c < chunks; c = next.fetch_add(1)) {
      body(c * chunk, std::min(items, (c + 1) * chunk));
    }
  });
}

}  // namespace infergate::detail
