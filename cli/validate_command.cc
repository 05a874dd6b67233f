#include "cli/validate_command.h"

#include <boost/program_options.hpp>
#include <iostream>
#include <string>
#include <vector>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"
#include "cli/command_line.h"
#include "gates/rules/default_rules.h"
#include "gates/verdict/paced_rules.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

struct ValidateOptions {
  std::vector<std::string> files;
  std::vector<std::string> overrides;
  std::string rules;  // empty: the built-in default rules
  bool print = false;
};

// One file: "FILE: ok (...)", a note for each gate rule the workload's design cannot move and,
// with --print, the resolved JSON; or the error.
bool validate_file(const std::string& file, const ValidateOptions& o, const RuleSet& rules) {
  try {
    const Workload w = load_workload_file(file, o.overrides);
    std::cout << file << ": ok (workload " << w.name << ", hash " << w.hash << ")\n";
    for (const std::string& note : paced_rule_notes(rules, w.resolved)) {
      std::cout << file << ": note: " << note << "\n";
    }
    if (o.print) std::cout << w.resolved.dump(2) << "\n";
    return true;
  } catch (const WorkloadError& e) {
    std::cerr << e.what() << "\n";
    return false;
  }
}

}  // namespace

int validate_command(int argc, char** argv) {
  ValidateOptions o;
  po::options_description desc("infergate validate FILE... [options]");
  desc.add_options()("help,h", "show this help")(
      "set", po::value(&o.overrides)->composing(),
      "override a field, path=value (e.g. --set load.rate=4); repeatable")(
      "print", po::bool_switch(&o.print), "print the resolved workload (defaults filled in)")(
      "rules", po::value(&o.rules),
      "gate rules to check the workload's design against (default: built-in gates/default.json)");
  po::options_description hidden;
  hidden.add_options()("file", po::value(&o.files), "workload file");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description positional;
  positional.add("file", -1);
  const auto parsed = parse_command_line(argc, argv, all, positional);
  if (!parsed) return 0;
  if (o.files.empty()) throw std::invalid_argument("expected a workload file (see --help)");
  const RuleSet rules = o.rules.empty() ? default_rule_set() : load_rule_set(o.rules);
  bool all_ok = true;
  for (const std::string& file : o.files) all_ok = validate_file(file, o, rules) && all_ok;
  return all_ok ? 0 : 2;
}

}  // namespace infergate
