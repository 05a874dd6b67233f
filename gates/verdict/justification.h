// Whether a needs-justification rule's regression is acknowledged by the change: its
// justification file lies inside the change's checkout (after following symlinks) and says
// what it justifies, with a line naming the rule (docs/gates.md, "Justification files"):
//
//   justifies: peak-memory
//
// A file that exists but names nothing (or another rule) justifies nothing, so an unrelated
// file (/etc/passwd, a README) can never wave a regression through.
#pragma once

#include <string>

#include "gates/rules/gate_rule.h"

namespace infergate {

struct JustificationCheck {
  bool justified = false;
  std::string reason;  // appended to the rule's reason: "justified by F", or what is missing
};

// Largest justification file read; a bigger one is refused rather than read whole.
inline constexpr size_t kMaxJustificationBytes = 64 * 1024;

JustificationCheck check_justification(const GateRule& rule, const std::string& root);

}  // namespace infergate
