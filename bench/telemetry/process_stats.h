// This process's own resource use, read cheaply enough to sample every few milliseconds.
#pragma once

namespace infergate {

// Resident set size (/proc/self/statm), in bytes; 0 if unreadable.
double process_rss_bytes();

// CPU time, user + system, in seconds: of every thread of the process, and of the calling
// thread alone. From the scheduler's ns accounting (clock_gettime), not /proc/self/stat, whose
// 10 ms ticks would blur a 100 ms sample by +-10% of a core.
double process_cpu_seconds();
double thread_cpu_seconds();

}  // namespace infergate
