// Hardware counters of the engine's compute threads through perf_event_open(2): instructions
// and cycles retired in user space, per thread, read around each step. Instructions do not
// change with a neighbour's load or the clock speed, which makes "instructions per decoded
// token" the steadiest figure a gate can have where the kernel offers it. Many VMs expose no
// PMU (ENOENT) or forbid it (perf_event_paranoid): then open() says why, and results record the
// counters as unavailable rather than as zero (docs/metrics.md, "Engine CPU time").
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

struct CounterReading {
  int64_t instructions = 0, cycles = 0;
};

class HardwareCounters {
 public:
  // perf event (type, config) pairs counted as "instructions" and "cycles": the hardware events
  // by default; tests use software events to exercise the same code where no PMU is exposed.
  struct Events {
    uint32_t type = 0;                      // PERF_TYPE_HARDWARE
    uint64_t instructions = 1, cycles = 0;  // PERF_COUNT_HW_INSTRUCTIONS, _CPU_CYCLES
  };
  static Events hardware_events();

  // One counter group per thread in `tids` (0: the calling thread). nullopt when any cannot be
  // opened, with the reason ("perf_event_open: No such file or directory (no PMU exposed...)").
  static std::optional<HardwareCounters> open(const std::vector<pid_t>& tids, const Events& events,
                                              std::string* why_not);

  HardwareCounters(HardwareCounters&& other) noexcept;
  HardwareCounters& operator=(HardwareCounters&& other) noexcept;
  HardwareCounters(const HardwareCounters&) = delete;
  HardwareCounters& operator=(const HardwareCounters&) = delete;
  ~HardwareCounters();

  // The sum over the threads since they were opened; nullopt when a read fails (a thread has
  // exited) or the kernel multiplexed the counters (their time running fell short of their time
  // enabled, so the counts would be estimates).
  std::optional<CounterReading> read() const;

 private:
  HardwareCounters() = default;
  void close_all();
  std::vector<int> leaders_;  // one group leader (instructions) per thread; cycles is its member
  std::vector<int> members_;
};

}  // namespace infergate
