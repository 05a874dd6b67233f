#include "kernels/cpu/thread_pool.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <functional>
#include <vector>

namespace infergate {
namespace {

// Runs one loop and checks that every index in [0, n) was visited exactly once.
void check_covers(ThreadPool& pool, int64_t n) {
  std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
  std::atomic<int> calls{0};
  pool.parallel_for(n, [&](int64_t b, int64_t e) {
    REQUIRE(b < e);
    calls.fetch_add(1);
    for (int64_t i = b; i < e; ++i) hits[size_t(i)].fetch_add(1);
  });
  for (int64_t i = 0; i < n; ++i) REQUIRE(hits[size_t(i)].load() == 1);
  CHECK(calls.load() <= pool.size());
  CHECK(calls.load() == std::min<int64_t>(n, pool.size()));
}

TEST_CASE("parallel_for covers every index exactly once, including n below the thread count") {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    CHECK(pool.size() == threads);
    for (int64_t n : {1, 2, 3, 7, 8, 9, 100, 12345}) check_covers(pool, n);
  }
}

TEST_CASE("parallel_for with n <= 0 calls nothing") {
  ThreadPool pool(2);
  int calls = 0;
  pool.parallel_for(0, [&](int64_t, int64_t) { ++calls; });
  pool.parallel_for(-5, [&](int64_t, int64_t) { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("parallel_for survives many back-to-back loops and sleeping workers") {
  ThreadPool pool(3);
  std::atomic<int64_t> total{0};
  for (int rep = 0; rep < 20000; ++rep) {
    pool.parallel_for(5, [&](int64_t b, int64_t e) { total.fetch_add(e - b); });
  }
  CHECK(total.load() == 5 * 20000);
  for (int rep = 0; rep < 5; ++rep) {  // long enough gaps that workers go to sleep
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    check_covers(pool, 10);
  }
}

TEST_CASE("parallel_for accepts a std::function and a mutable lambda") {
  ThreadPool pool(2);
  std::atomic<int64_t> sum{0};
  const std::function<void(int64_t, int64_t)> fn = [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) sum.fetch_add(i);
  };
  pool.parallel_for(100, fn);
  CHECK(sum.load() == 4950);
  int counter = 0;
  ThreadPool single(1);
  single.parallel_for(10, [&counter](int64_t b, int64_t e) mutable { counter += int(e - b); });
  CHECK(counter == 10);
}

}  // namespace
}  // namespace infergate
