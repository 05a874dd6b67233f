#include "engine/core/hardware_counters.h"

#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace infergate {

namespace {

int open_event(uint32_t type, uint64_t config, pid_t tid, int group_fd) {
  perf_event_attr attr;
  std::memset(&attr, 0, sizeof attr);
  attr.size = sizeof attr;
  attr.type = type;
  attr.config = config;
  attr.exclude_kernel = 1;  // allowed at perf_event_paranoid 2, and the engine's own work
  attr.exclude_hv = 1;
  attr.disabled = group_fd == -1 ? 1 : 0;
  attr.read_format =
      PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
  return int(syscall(SYS_perf_event_open, &attr, tid, -1, group_fd, PERF_FLAG_FD_CLOEXEC));
}

std::string explain(int err) {
  std::string why = std::string("perf_event_open: ") + std::strerror(err);
  if (err == ENOENT || err == EOPNOTSUPP)
    why += " (this machine exposes no such counter, as many VMs)";
  if (err == EACCES || err == EPERM)
    why += " (not permitted: see /proc/sys/kernel/perf_event_paranoid)";
  return why;
}

}  // namespace

HardwareCounters::Events HardwareCounters::hardware_events() {
  return {PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, PERF_COUNT_HW_CPU_CYCLES};
}

std::optional<HardwareCounters> HardwareCounters::open(const std::vector<pid_t>& tids,
                                                       const Events& events, std::string* why_not) {
  HardwareCounters c;
  for (const pid_t tid : tids) {
    const int leader = open_event(events.type, events.instructions, tid, -1);
    const int member = leader < 0 ? -1 : open_event(events.type, events.cycles, tid, leader);
    if (leader < 0 || member < 0) {
      const int err = errno;
      if (leader >= 0) ::close(leader);
      if (why_not) *why_not = explain(err);
      return std::nullopt;  // c closes what it opened
    }
    c.leaders_.push_back(leader);
    c.members_.push_back(member);
    ioctl(leader, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
  }
  return c;
}

HardwareCounters::HardwareCounters(HardwareCounters&& other) noexcept
    : leaders_(std::move(other.leaders_)), members_(std::move(other.members_)) {
  other.leaders_.clear();
  other.members_.clear();
}

HardwareCounters& HardwareCounters::operator=(HardwareCounters&& other) noexcept {
  if (this != &other) {
    close_all();
    leaders_ = std::exchange(other.leaders_, {});
    members_ = std::exchange(other.members_, {});
  }
  return *this;
}

HardwareCounters::~HardwareCounters() { close_all(); }

void HardwareCounters::close_all() {
  for (int fd : members_) ::close(fd);
  for (int fd : leaders_) ::close(fd);
  leaders_.clear();
  members_.clear();
}

std::optional<CounterReading> HardwareCounters::read() const {
  CounterReading total;
  for (const int fd : leaders_) {
    // PERF_FORMAT_GROUP with both times: nr, time_enabled, time_running, then one value each.
    uint64_t buf[5] = {};
    if (::read(fd, buf, sizeof buf) != ssize_t(sizeof buf) || buf[0] != 2) return std::nullopt;
    if (buf[2] < buf[1]) return std::nullopt;  // multiplexed: the counts would be scaled guesses
    total.instructions += int64_t(buf[3]);
    total.cycles += int64_t(buf[4]);
  }
  return total;
}

}  // namespace infergate
