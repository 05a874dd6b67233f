#include "gates/bisect/bisect_log.h"

#include <sstream>
#include <string_view>

namespace infergate {

namespace {

// The hash in "<prefix>[<hash>] subject", or "" when `line` does not start with `prefix`.
std::string bracketed_hash(std::string_view line, std::string_view prefix) {
  if (line.substr(0, prefix.size()) != prefix) return "";
  line.remove_prefix(prefix.size());
  if (line.empty() || line[0] != '[') return "";
  const size_t close = line.find(']');
  return close == std::string_view::npos ? "" : std::string(line.substr(1, close - 1));
}

}  // namespace

BisectConclusion parse_bisect_log(const std::string& log) {
  BisectConclusion c;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const std::string first = bracketed_hash(line, "# first bad commit: ");
    if (!first.empty()) c.first_bad = first;
    const std::string possible = bracketed_hash(line, "# possible first bad commit: ");
    if (!possible.empty()) c.candidates.push_back(possible);
  }
  return c;
}

}  // namespace infergate
