// The process of a server on this host: found by the TCP port it listens on (the kernel's
// socket tables /proc/net/tcp and tcp6, then the socket's inode among /proc/*/fd), and sampled
// for its resident memory (/proc/PID/statm) and CPU time (/proc/PID/stat utime + stime, in
// clock ticks: sysconf(_SC_CLK_TCK), usually 100 per second).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace infergate {

// localhost, 127.0.0.0/8, ::1 (with or without brackets).
bool is_loopback_host(const std::string& host);

struct PidLookup {
  std::optional<int> pid;  // the lowest pid holding the socket, when found
  std::string detail;      // how it was found, or why not
};

// The process with a LISTEN socket on TCP `port` (any local address, IPv4 or IPv6). A socket
// whose holder is another user's process is found but not its pid (its /proc/PID/fd is closed
// to us): the detail says so.
PidLookup find_listening_pid(uint16_t port);

struct ProcessReading {
  double rss_bytes = 0;
  int64_t cpu_ticks = 0;  // utime + stime, in clock ticks
};

// Now; nullopt when the process is gone or unreadable.
std::optional<ProcessReading> read_process(int pid);

// Clock ticks per second (/proc's CPU-time unit).
double clock_ticks_per_second();

}  // namespace infergate
