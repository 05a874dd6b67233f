#include "gates/rules/gate_rule.h"

#include <fnmatch.h>

namespace infergate {

bool GateRule::applies_to(const std::string& workload_name) const {
  const auto matches = [&](const std::vector<std::string>& globs) {
    for (const std::string& glob : globs) {
      if (::fnmatch(glob.c_str(), workload_name.c_str(), 0) == 0) return true;
    }
    return false;
  };
  return matches(workloads) && !matches(except_workloads);
}

const char* to_string(Direction d) { return d == Direction::kLowerIsBetter ? "lower" : "higher"; }

const char* to_string(Severity s) {
  switch (s) {
    case Severity::kFail:
      return "fail";
    case Severity::kWarn:
      return "warn";
    case Severity::kNeedsJustification:
      return "needs-justification";
  }
  return "?";
}

}  // namespace infergate
