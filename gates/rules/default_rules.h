// The default gate, gates/default.json, as compiled into the binary.
#pragma once

#include "gates/rules/rule_set.h"

namespace infergate {

// Parsed from the compiled-in copy; its source reads "built-in gates/default.json".
RuleSet default_rule_set();

}  // namespace infergate
