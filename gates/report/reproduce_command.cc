#include "gates/report/reproduce_command.h"

#include "common/util/shell_quote.h"

namespace infergate {

std::string reproduce_command(const Comparison& comparison) {
  std::string cmd = "infergate compare " + shell_quote(comparison.baseline_path) + " " +
                    shell_quote(comparison.candidate_path);
  // The built-in default rules (source "built-in gates/default.json") need no --rules.
  const bool built_in = comparison.rules_path.rfind("built-in ", 0) == 0;
  if (!comparison.rules_path.empty() && !built_in) {
    cmd += " --rules " + shell_quote(comparison.rules_path);
  }
  if (comparison.comparable && !comparison.differences.empty()) cmd += " --allow-env-diff";
  if (comparison.paired) cmd += " --paired";
  return cmd;
}

}  // namespace infergate
