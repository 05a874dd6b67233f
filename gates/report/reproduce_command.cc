#include "gates/report/reproduce_command.h"

#include <cctype>

namespace infergate {

std::string shell_quote(std::string_view text) {
  bool safe = !text.empty();
  for (const char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '/' || c == '.' ||
                    c == '_' || c == '-' || c == '+' || c == ',' || c == ':' || c == '=' ||
                    c == '@';
    safe = safe && ok;
  }
  if (safe) return std::string(text);
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

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
