#include "kernels/cpu/thread_pool.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
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

TEST_CASE("a pool above the thread maximum is refused naming the limit") {
  REQUIRE_THROWS_WITH(ThreadPool(100000), Catch::Contains("100000 threads asked for") &&
                                              Catch::Contains("the maximum is 1024"));
  REQUIRE_THROWS_WITH(ThreadPool(ThreadPool::kMaxThreads + 1),
                      Catch::Contains("1025 threads asked for"));
}

// The child's verdicts for the test below.
constexpr int kChildRefusedCleanly = 0, kChildNoError = 1, kChildOtherError = 2;

// In a forked child, with its address space capped just above what it uses, so the system
// refuses the second or third thread stack.
int build_pool_under_address_space_cap() {
  long pages = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  if (pages <= 0) return kChildOtherError;
  const rlim_t cap = rlim_t(pages) * rlim_t(sysconf(_SC_PAGESIZE)) + (rlim_t(20) << 20);
  const rlimit limit{cap, cap};
  if (setrlimit(RLIMIT_AS, &limit) != 0) return kChildOtherError;
  try {
    ThreadPool pool(64);
    return kChildNoError;
  } catch (const std::runtime_error& e) {
    // Had a started thread been left unjoined, std::terminate would have aborted the child.
    const std::string what = e.what();
    return what.find("the system refused to start thread") != std::string::npos
               ? kChildRefusedCleanly
               : kChildOtherError;
  } catch (...) {
    return kChildOtherError;
  }
}

TEST_CASE("when the system refuses a thread the pool throws and joins the threads it started") {
#if defined(__SANITIZE_ADDRESS__)
  WARN("skipped: an address-space cap breaks the sanitizer's own reservations");
#else
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) _exit(build_pool_under_address_space_cap());
  int status = 0;
  pid_t done = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while ((done = waitpid(child, &status, WNOHANG)) == 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (done == 0) {
    kill(child, SIGKILL);
    waitpid(child, &status, 0);
    FAIL("the child building the pool did not finish within 20 s");
  }
  REQUIRE(WIFEXITED(status));  // not killed by std::terminate's abort
  REQUIRE(WEXITSTATUS(status) == kChildRefusedCleanly);
#endif
}

}  // namespace
}  // namespace infergate

namespace infergate {

// The workers' CPU clocks see the work they did, and nothing while they sleep.
TEST_CASE("the workers' CPU time grows with the work they do, not while they wait") {
  ThreadPool pool(2);
  const int64_t before = pool.workers_cpu_ns();
  std::atomic<int64_t> sink{0};
  pool.parallel_for(2, [&](int64_t b, int64_t) {
    if (b == 0) return;  // the caller's half does nothing: only the worker burns CPU
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
    int64_t x = 0;
    while (std::chrono::steady_clock::now() < until) x += 1;
    sink += x;
  });
  const int64_t after_work = pool.workers_cpu_ns();
  // 50 ms of busy loop; a loaded machine may deschedule the worker for part of it.
  CHECK(after_work - before > 10'000'000);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  // A sleeping worker: no more than its brief spin before the futex wait.
  CHECK(pool.workers_cpu_ns() - after_work < 50'000'000);
  CHECK(ThreadPool(1).workers_cpu_ns() == 0);  // no workers
}

}  // namespace infergate
