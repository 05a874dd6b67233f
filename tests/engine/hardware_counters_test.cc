// The engine's perf_event counters. Hardware events are missing on many VMs (this project's
// machines among them), so the plumbing (groups per thread, reads, sums) is tested with the
// kernel's software clocks in their place; the hardware events are tested for what this machine
// has: counts that grow, or a reason.
#include <linux/perf_event.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <set>

#include "engine/core/engine.h"
#include "engine/core/hardware_counters.h"
#include "kernels/cpu/thread_pool.h"
#include "test_models.h"

using namespace infergate;

namespace {

// The kernel's task and CPU clocks (ns) stand in for instructions and cycles.
HardwareCounters::Events software_clocks() {
  return {PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, PERF_COUNT_SW_CPU_CLOCK};
}

int64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// Busy for `d` of this thread's own CPU time, however many other processes share the core.
void busy_for(std::chrono::milliseconds d) {
  const int64_t end = thread_cpu_ns() + int64_t(d.count()) * 1'000'000;
  volatile uint64_t sink = 0;
  while (thread_cpu_ns() < end) sink = sink + 1;
}

}  // namespace

TEST_CASE("thread pool workers report distinct thread ids of their own", "[engine]") {
  ThreadPool pool(3);
  const std::vector<pid_t> tids = pool.worker_tids();
  REQUIRE(tids.size() == 2);
  const std::set<pid_t> distinct(tids.begin(), tids.end());
  CHECK(distinct.size() == 2);
  CHECK_FALSE(distinct.count(::gettid()));
  CHECK_FALSE(distinct.count(0));
}

TEST_CASE("counter groups on the caller and the pool's workers sum their work", "[engine]") {
  ThreadPool pool(2);
  std::vector<pid_t> tids = pool.worker_tids();
  tids.insert(tids.begin(), 0);
  std::string why;
  std::optional<HardwareCounters> c = HardwareCounters::open(tids, software_clocks(), &why);
  REQUIRE(c.has_value());  // software events exist on every Linux kernel
  const std::optional<CounterReading> before = c->read();
  REQUIRE(before.has_value());
  pool.parallel_for(2, [](int64_t, int64_t) { busy_for(std::chrono::milliseconds(30)); });
  const std::optional<CounterReading> after = c->read();
  REQUIRE(after.has_value());
  // Two threads busy 30 ms each: at least ~60 ms of task clock between the reads.
  CHECK(after->instructions - before->instructions > 50'000'000);
  CHECK(after->cycles - before->cycles > 50'000'000);
  HardwareCounters moved = std::move(*c);  // the fds move with it
  CHECK(moved.read().has_value());
}

TEST_CASE("hardware counters either count or say why not", "[engine]") {
  std::string why;
  std::optional<HardwareCounters> c =
      HardwareCounters::open({0}, HardwareCounters::hardware_events(), &why);
  if (!c) {
    WARN("no hardware counters here: " << why);
    CHECK(why.rfind("perf_event_open: ", 0) == 0);
    return;
  }
  const CounterReading before = *c->read();
  busy_for(std::chrono::milliseconds(5));
  const CounterReading after = *c->read();
  CHECK(after.instructions > before.instructions);
  CHECK(after.cycles > before.cycles);
}

TEST_CASE("a CPU engine records its steps' hardware counts or why it has none", "[engine]") {
  const ModelWeights weights = make_synthetic_model(testing::small_test_config(), 3);
  EngineConfig config;
  config.num_threads = 2;
  Engine engine(config, weights);
  SamplingParams p;
  p.max_tokens = 6;
  p.ignore_eos = true;
  engine.generate({std::vector<int32_t>(40, 7)}, p);
  const EngineStats s = engine.stats();
  REQUIRE(s.cpu.has_value());
  if (s.hardware) {
    CHECK(s.hardware_unavailable.empty());
    CHECK(s.hardware->decode_tokens == 5);
    CHECK(s.hardware->decode_instructions > 0);
    CHECK(s.hardware->instructions >= s.hardware->decode_instructions);
  } else {
    CHECK(s.hardware_unavailable.rfind("perf_event_open: ", 0) == 0);
  }
}
