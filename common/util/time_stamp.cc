#include "common/util/time_stamp.h"

#include <ctime>

namespace infergate {

namespace {

constexpr const char* kIso8601 = "%Y-%m-%dT%H:%M:%SZ";
constexpr const char* kCompact = "%Y%m%d-%H%M%S";

// The _r forms: the harness stamps from more than one thread.
std::string format_now(const char* format, bool utc) {
  const std::time_t t = std::time(nullptr);
  std::tm parts{};
  if (utc) {
    gmtime_r(&t, &parts);
  } else {
    localtime_r(&t, &parts);
  }
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), format, &parts);
  return stamp;
}

}  // namespace

std::string utc_iso8601_now() { return format_now(kIso8601, true); }
std::string utc_compact_now() { return format_now(kCompact, true); }
std::string local_compact_now() { return format_now(kCompact, false); }

}  // namespace infergate
