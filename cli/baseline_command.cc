#include "cli/baseline_command.h"

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli/command_line.h"
#include "cli/gate_inputs.h"
#include "common/results/machine_key.h"
#include "common/util/safe_file_name.h"
#include "gates/baseline/baseline_store.h"
#include "gates/verdict/error_share_check.h"
#include "gates/verdict/verdict.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// A baseline every later comparison is judged against must be a measurement: a result whose
// requests failed beyond the rules' error-share limit is refused unless --allow-errors.
int update(const BaselineStore& store, const std::vector<std::string>& args,
           const std::string& rules_path, bool allow_errors) {
  if (args.size() != 1) throw po::error("baseline update takes one RESULT file");
  const ResultsFile result = load_results(args[0]);
  const std::vector<std::string> failed =
      error_share_excesses(result, load_rules_or_default(rules_path), "result");
  for (const std::string& f : failed) {
    std::cerr << "infergate baseline: " << (allow_errors ? "warning: " : "refusing: ") << f << "\n";
  }
  if (!failed.empty() && !allow_errors) {
    std::cerr << "infergate baseline: a baseline must measure the code, not failed requests; fix "
                 "the run, or give --allow-errors to store it anyway\n";
    return kExitUsage;
  }
  const std::string path = store.update(result);
  std::cout << "baseline: " << path << "\n";
  return kExitPass;
}

void print_entry(const BaselineEntry& e) {
  std::cout << e.machine_key << "/" << e.workload << "  commit " << e.commit.substr(0, 12)
            << "  created " << e.created_at << "  repetitions " << e.repetitions
            << (e.has_noise ? "  calibrated" : "  not calibrated") << "\n";
}

// `show WORKLOAD` (this machine's key is unknown without a result, so every machine's) or
// `show RESULT` (the baseline that result would be compared with).
int show(const BaselineStore& store, const std::vector<std::string>& args) {
  if (args.size() != 1) throw po::error("baseline show takes a WORKLOAD name or a RESULT file");
  std::vector<BaselineEntry> shown;
  if (std::filesystem::is_regular_file(args[0])) {
    const ResultsFile result = load_results(args[0]);
    const ResultsFile baseline = store.load_for(result);
    for (const BaselineEntry& e : store.list()) {
      if (e.path == baseline.source) shown.push_back(e);
    }
  } else {
    for (const BaselineEntry& e : store.list()) {
      if (e.workload == args[0] || e.workload == safe_file_name(args[0])) shown.push_back(e);
    }
  }
  if (shown.empty()) throw BaselineError("no baseline for '" + args[0] + "'");
  for (const BaselineEntry& e : shown) {
    print_entry(e);
    std::cout << "  file: " << e.path << "\n";
    for (const std::string& line : store.history(e.machine_key, e.workload)) {
      std::cout << "  history: " << line << "\n";
    }
  }
  return kExitPass;
}

int list(const BaselineStore& store) {
  const std::vector<BaselineEntry> entries = store.list();
  if (entries.empty()) std::cout << "no baselines stored\n";
  for (const BaselineEntry& e : entries) print_entry(e);
  return kExitPass;
}

}  // namespace

int baseline_command(int argc, char** argv) {
  std::string action, root, rules;
  std::vector<std::string> args;
  po::options_description desc(
      "infergate baseline update RESULT | show WORKLOAD|RESULT | list [options]\n"
      "Exit: 0 done, 2 usage or input error (a refused result: incomplete, or its requests "
      "failed)");
  desc.add_options()("help,h", "show this help")("action", po::value(&action)->required(),
                                                 "update, show or list")(
      "args", po::value(&args)->multitoken(), "")(
      "baselines", po::value(&root)->default_value("results"), "baseline store folder")(
      "rules", po::value(&rules),
      "update: the rules whose error-share limit applies (default: the built-in "
      "gates/default.json)")(
      "allow-errors", "update: store a result whose requests failed beyond the error-share limit");
  po::positional_options_description pos;
  pos.add("action", 1).add("args", -1);
  try {
    const auto vm = parse_command_line(argc, argv, desc, pos);
    if (!vm) return kExitPass;
    const BaselineStore store(root);
    if (action == "update") return update(store, args, rules, vm->count("allow-errors") > 0);
    if (action == "show") return show(store, args);
    if (action == "list") return list(store);
    throw po::error("unknown action '" + action + "' (allowed: update, show, list)");
  } catch (const po::error& e) {
    std::cerr << "infergate baseline: " << e.what() << " (see --help)\n";
    return kExitUsage;
  }
}

}  // namespace infergate
