// What `git bisect log` says a bisect concluded: the first bad commit, or, when only skipped
// commits were left, the commits it could be.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace infergate {

struct BisectConclusion {
  std::optional<std::string> first_bad;  // "# first bad commit: [<hash>] ..."
  std::vector<std::string> candidates;   // "# possible first bad commit: [<hash>] ..."
};

BisectConclusion parse_bisect_log(const std::string& log);

}  // namespace infergate
