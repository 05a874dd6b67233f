#include "common/util/time_stamp.h"

#include <catch2/catch.hpp>
#include <regex>

namespace infergate {

TEST_CASE("time stamps have the ISO 8601 and compact shapes results and file names use") {
  CHECK(std::regex_match(utc_iso8601_now(),
                         std::regex(R"(20\d\d-[01]\d-[0-3]\dT[0-2]\d:[0-5]\d:[0-6]\dZ)")));
  const std::regex compact(R"(20\d\d[01]\d[0-3]\d-[0-2]\d[0-5]\d[0-6]\d)");
  CHECK(std::regex_match(utc_compact_now(), compact));
  CHECK(std::regex_match(local_compact_now(), compact));
}

}  // namespace infergate
