// Thousands of concurrent streams need thousands of sockets, and the usual soft limit on open
// files (1024) is below that while the hard limit rarely is.
#pragma once

#include <cstdint>

namespace infergate {

// Raises this process's RLIMIT_NOFILE soft limit to its hard limit (children started later
// inherit it). Returns the soft limit in force afterwards.
int64_t raise_open_file_limit();

}  // namespace infergate
