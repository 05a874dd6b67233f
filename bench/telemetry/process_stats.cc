#include "bench/telemetry/process_stats.h"

#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>

namespace infergate {
namespace {

double cpu_seconds(clockid_t clock) {
  timespec t{};
  if (clock_gettime(clock, &t) != 0) return 0;
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

double process_rss_bytes() {
  // statm: "size resident shared text lib data dt", in pages. A raw read: no stream, no locale.
  const int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buffer[128] = {};
  const ssize_t n = read(fd, buffer, sizeof(buffer) - 1);
  close(fd);
  unsigned long long size = 0;
  unsigned long long resident = 0;
  if (n <= 0 || std::sscanf(buffer, "%llu %llu", &size, &resident) != 2) return 0;
  return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

double process_cpu_seconds() { return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID); }

double thread_cpu_seconds() { return cpu_seconds(CLOCK_THREAD_CPUTIME_ID); }

}  // namespace infergate
