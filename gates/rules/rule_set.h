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

struct RuleSet {
  std::string source;        // the file it was read from
  double alpha = 0.05;       // significance level of the one-sided Mann-Whitney U test
  double confidence = 0.95;  // of the bootstrap interval of the change
  int bootstrap_iterations = 2000;
  std::vector<GateRule> rules;
};

RuleSet load_rule_set(const std::string& path);
RuleSet parse_rule_set(const nlohmann::json& doc, const std::string& source);

}  // namespace infergate
