#include "cli/gate_inputs.h"

#include <filesystem>

#include "gates/baseline/baseline_store.h"
#include "gates/rules/default_rules.h"

namespace infergate {

RuleSet load_rules_or_default(const std::string& path) {
  return path.empty() ? default_rule_set() : load_rule_set(path);
}

ResultsFile load_baseline(const std::string& baseline_path, const std::string& store_root,
                          const ResultsFile& candidate) {
  if (!baseline_path.empty()) return load_results(baseline_path);
  return BaselineStore(store_root).load_for(candidate);
}

std::string noise_file_beside(const std::string& baseline_path) {
  std::filesystem::path p(baseline_path);
  p.replace_extension(".noise.json");
  return std::filesystem::exists(p) ? p.string() : "";
}

}  // namespace infergate
