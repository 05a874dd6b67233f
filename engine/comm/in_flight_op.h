// The communication operation this process is blocked in, if any, kept where a signal handler
// may read it (lock-free atomics): when mpirun stops a job because a rank died, the survivors
// can still say what they were waiting in (termination_report.h).
#pragma once

#include <cstdint>

namespace infergate {

// `name` must outlive the operation (a string literal); nullptr clears it.
void set_in_flight_op(const char* name);
// Async-signal-safe reads: the name (nullptr when none) and when it started (steady clock, ns).
const char* in_flight_op_name();
int64_t in_flight_op_since_ns();

}  // namespace infergate
