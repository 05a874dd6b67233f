#include "gates/verdict/error_share_check.h"

#include <sstream>

namespace infergate {

namespace {

std::string percent(double fraction) {
  std::ostringstream s;
  s.precision(3);
  s << fraction * 100 << "%";
  return s.str();
}

}  // namespace

std::vector<std::string> error_share_excesses(const ResultsFile& results, const RuleSet& rules,
                                              const std::string& side) {
  const ErrorShareLimit limit = rules.error_share_limit(results.workload_name);
  std::vector<std::string> out;
  for (const PointResult& p : results.points) {
    const PointErrors errors = point_errors(p);
    if (errors.share() <= limit.max_share) continue;
    const std::string label = sweep_point_label(p);
    out.push_back(side + " " + results.source + (label.empty() ? "" : " at " + label) + ": " +
                  describe_errors(errors) + " (" + percent(errors.share()) + "), above the " +
                  percent(limit.max_share) + " limit of " +
                  (limit.rule.empty() ? std::string("the built-in error-share default")
                                      : "rule '" + limit.rule + "'"));
  }
  return out;
}

}  // namespace infergate
