#include "gates/process/interrupt.h"

#include <atomic>
#include <csignal>

namespace infergate {

namespace {

std::atomic<int> g_signal{0};
std::atomic<int> g_shields{0};
static_assert(std::atomic<int>::is_always_lock_free, "used from a signal handler");

void on_signal(int sig) {
  int none = 0;
  g_signal.compare_exchange_strong(none, sig);
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction action = {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaction(sig, &action, nullptr);
}

int interrupt_signal() { return g_signal.load(); }

int interrupt_to_forward() { return g_shields.load() > 0 ? 0 : g_signal.load(); }

InterruptShield::InterruptShield() { ++g_shields; }

InterruptShield::~InterruptShield() { --g_shields; }

}  // namespace infergate
