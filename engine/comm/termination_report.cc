#include "engine/comm/termination_report.h"

#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>

#include "engine/comm/in_flight_op.h"

namespace infergate {

namespace {

int g_rank = 0;
int g_size = 0;

// A fixed buffer with async-signal-safe appends (no allocation, no stdio).
struct SignalSafeText {
  char buf[512];
  size_t len = 0;

  void add(const char* s) {
    while (*s && len < sizeof(buf)) buf[len++] = *s++;
  }
  void add(int64_t v) {
    if (v < 0) {
      add("-");
      v = -v;
    }
    char digits[24];
    int n = 0;
    do {
      digits[n++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v && n < 24);
    while (n && len < sizeof(buf)) buf[len++] = digits[--n];
  }
};

void report_and_die(int sig) {
  SignalSafeText t;
  t.add("infergate: rank ");
  t.add(g_rank);
  t.add(" of ");
  t.add(g_size);
  t.add(" (pid ");
  t.add(static_cast<int64_t>(getpid()));
  t.add("): stopped by SIGTERM");
  if (const char* op = in_flight_op_name()) {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);  // steady_clock's clock on Linux
    const int64_t now_ns = int64_t(now.tv_sec) * 1000000000 + now.tv_nsec;
    t.add(" after waiting ");
    t.add((now_ns - in_flight_op_since_ns()) / 1000000);
    t.add(" ms in ");
    t.add(op);
    t.add("; mpirun stops every rank when one fails (its message names the failed rank)\n");
  } else {
    t.add(" outside any communication operation\n");
  }
  [[maybe_unused]] const ssize_t written = write(STDERR_FILENO, t.buf, t.len);
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

bool install_termination_report(int rank, int size) {
  struct sigaction current {};
  if (sigaction(SIGTERM, nullptr, &current) != 0 || current.sa_handler != SIG_DFL) return false;
  g_rank = rank;
  g_size = size;
  struct sigaction action {};
  action.sa_handler = report_and_die;
  sigemptyset(&action.sa_mask);
  return sigaction(SIGTERM, &action, nullptr) == 0;
}

}  // namespace infergate
