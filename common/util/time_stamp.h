// Wall-clock time stamps for results, logs and default file names. Every other timestamp in
// infergate is monotonic (clock.h); these are the ones a person reads or sorts by.
#pragma once

#include <string>

namespace infergate {

// Now in UTC, ISO 8601 to the second: "2026-11-29T12:36:45Z" (results' created_at, logs).
std::string utc_iso8601_now();
// Now in UTC, compact and file-name safe: "20261129-123645".
std::string utc_compact_now();
// Now in local time, compact and file-name safe: "20261129-133645" (default output names a
// person looks for by their own clock).
std::string local_compact_now();

}  // namespace infergate
