// A rules file (`gates/*.json`, schema "infergate.gates/v1", docs/gates.md): the statistical
// settings shared by its rules and the rules themselves.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "gates/rules/gate_rule.h"

namespace infergate {

inline constexpr const char* kGatesSchema = "infergate.gates/v1";

// A rules file that cannot be used; the message names the file, the JSON path and the allowed
// values.
class RuleError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Rule kind "error-share": results whose share of failed requests is above `max_share` are
// refused by `compare` and `baseline update` (docs/gates.md, "Failed requests").
struct ErrorShareRule {
  std::string name;
  std::string description;
  double max_share = 0.01;
  std::vector<std::string> workloads = {"*"};
};

// The limit when a rules file has no error-share rule for a workload: a rules file written
// before the kind existed still refuses a run whose requests failed.
inline constexpr double kDefaultMaxErrorShare = 0.01;

struct ErrorShareLimit {
  double max_share = kDefaultMaxErrorShare;
  std::string rule;  // the rule that set it; "" for the built-in default
};

struct RuleSet {
  std::string source;        // the file it was read from
  double alpha = 0.05;       // significance level of the one-sided Mann-Whitney U test
  double confidence = 0.95;  // of the bootstrap interval of the change
  int bootstrap_iterations = 2000;
  std::vector<GateRule> rules;  // metric rules
  std::vector<ErrorShareRule> error_share_rules;

  // The strictest error-share rule that applies to `workload_name`, else the default.
  ErrorShareLimit error_share_limit(const std::string& workload_name) const;
};

RuleSet load_rule_set(const std::string& path);
RuleSet parse_rule_set(const nlohmann::json& doc, const std::string& source);

}  // namespace infergate
