#include "gates/rules/default_rules.h"

#include "default_rules_text.h"

namespace infergate {

RuleSet default_rule_set() {
  return parse_rule_set(nlohmann::json::parse(kDefaultRulesText, nullptr, true, true),
                        "built-in gates/default.json");
}

}  // namespace infergate
