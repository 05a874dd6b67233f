// Ctrl-C and termination for commands that run other programs: the signal is recorded, and
// whatever child is running (run_process) receives it in turn, so every level stops cleanly and
// still cleans up after itself.
#pragma once

#include <stdexcept>

namespace infergate {

// Thrown where an interrupt stops the work; commands exit with 128 + the signal.
class Interrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Records SIGINT, SIGTERM and SIGHUP instead of dying (install once, at a command's start).
void install_interrupt_handlers();
// The first signal recorded, or 0.
int interrupt_signal();
// The signal run_process passes on to its child: interrupt_signal(), or 0 while an
// InterruptShield is alive.
int interrupt_to_forward();

// While alive, programs started by run_process run to completion even after an interrupt: for
// the cleanup that follows one (ending the bisect, removing its worktree).
class InterruptShield {
 public:
  InterruptShield();
  ~InterruptShield();
  InterruptShield(const InterruptShield&) = delete;
  InterruptShield& operator=(const InterruptShield&) = delete;
};

}  // namespace infergate
