#include "cli/ab_command.h"

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "bench/results/manifest.h"
#include "bench/workload/workload_parser.h"
#include "cli/command_line.h"
#include "cli/gate_inputs.h"
#include "cli/report_files.h"
#include "cli/verdict_table.h"
#include "common/results/machine_key.h"
#include "common/util/time_stamp.h"
#include "gates/ab/ab_plan.h"
#include "gates/ab/ab_session.h"
#include "gates/ab/capacity_probes.h"
#include "gates/baseline/baseline_store.h"
#include "gates/process/interrupt.h"
#include "gates/verdict/verdict.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

struct AbArguments {
  AbSettings settings;
  std::string rules, noise, store;
  double budget_minutes = 10;
  bool max_pairs_given = false;
};

std::string this_executable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

std::optional<AbArguments> parse(int argc, char** argv) {
  AbArguments a;
  AbSettings& s = a.settings;
  po::options_description desc(
      "infergate ab WORKLOAD [options]\n"
      "Runs the baseline and the candidate alternately (ABBA, one fresh process a run) and\n"
      "judges the pairs while they run, until the gate decides or the budget is spent.\n"
      "Exit: 0 pass, 1 regression, 2 usage or input error, 3 inconclusive, 4 incomparable,\n"
      "130 interrupted");
  desc.add_options()("help,h", "show this help")("workload", po::value(&s.workload_path),
                                                 "workload file")(
      "baseline-bin", po::value(&s.baseline.binary),
      "infergate binary of the baseline (default: this one)")(
      "candidate-bin", po::value(&s.candidate.binary),
      "infergate binary of the candidate (default: this one)")(
      "set", po::value(&s.sets)->composing(),
      "override a workload field on both sides (repeatable)")(
      "baseline-set", po::value(&s.baseline.sets)->composing(),
      "override a field for the baseline only")("candidate-set",
                                                po::value(&s.candidate.sets)->composing(),
                                                "override a field for the candidate only")(
      "rules", po::value(&a.rules), "rules file (default: the built-in gates/default.json)")(
      "min-pairs", po::value(&s.design.min_pairs)->default_value(0),
      "pairs before the first look (default: from the calibration, else the rules' minimum)")(
      "max-pairs", po::value(&s.design.max_pairs)->default_value(s.design.max_pairs),
      "at most this many pairs (default: with a calibration, what 95% power needs)")(
      "budget-minutes", po::value(&a.budget_minutes)->default_value(a.budget_minutes),
      "stop adding pairs when two more would end past this")(
      "out-dir", po::value(&s.out_dir),
      "runs, both sides' results and the reports (default out/ab-TIME)")(
      "noise", po::value(&a.noise),
      "paired calibration (calibrate --paired; default: the stored one for this workload and "
      "machine)")("baselines", po::value(&a.store)->default_value("results"),
                  "baseline store folder (for the noise file)")(
      "justification-root", po::value(&s.compare.justification_root)->default_value("."),
      "where rules' justification files are looked up")(
      "allow-errors", "judge sides whose requests failed beyond the rules' error-share limit");
  po::positional_options_description pos;
  pos.add("workload", 1);
  const auto vm = parse_command_line(argc, argv, desc, pos);
  if (!vm) return std::nullopt;
  if (s.workload_path.empty()) throw po::error("give WORKLOAD");
  if (s.design.min_pairs < 0 || s.design.min_pairs > 1000) throw po::error("--min-pairs: 0..1000");
  if (s.design.max_pairs < 2 || s.design.max_pairs > 1000) throw po::error("--max-pairs: 2..1000");
  // A first look after the last allowed pair would never come: the session would run to
  // --max-pairs and stop inconclusive without ever judging.
  if (s.design.min_pairs > s.design.max_pairs) {
    throw po::error("--min-pairs " + std::to_string(s.design.min_pairs) +
                    " is more than --max-pairs " + std::to_string(s.design.max_pairs) +
                    ": the first look would never come");
  }
  if (!(a.budget_minutes > 0 && a.budget_minutes <= 24 * 60)) {
    throw po::error("--budget-minutes: more than 0, at most 1440");
  }
  s.design.budget_seconds = a.budget_minutes * 60;
  s.allow_errors = vm->count("allow-errors") > 0;
  a.max_pairs_given = !(*vm)["max-pairs"].defaulted();
  if (s.baseline.binary.empty()) s.baseline.binary = this_executable();
  if (s.candidate.binary.empty()) s.candidate.binary = this_executable();
  if (s.out_dir.empty()) s.out_dir = "out/ab-" + local_compact_now();
  // Both sides run here, one after the other: only the builds (and any side's --set) may
  // differ, and telling those apart is the point. The differences are listed as warnings.
  s.compare.allow_env_diff = true;
  return a;
}

// The stored paired calibration for this workload on this machine, or "".
std::string default_noise_file(const AbArguments& a) {
  const Workload w = load_workload_file(a.settings.workload_path, a.settings.sets);
  ResultsFile here;
  here.manifest = build_manifest("", 0);
  const std::string path = BaselineStore(a.store).noise_path(machine_key(here), w.name);
  return std::filesystem::exists(path) ? path : "";
}

// Whether the baseline's workload searches for its capacity by bisection: then the pairs probe
// fixed loads around the baseline's capacity instead (gates/ab/capacity_probes.h).
bool bisects_capacity(const AbSettings& s) {
  std::vector<std::string> sets = s.sets;
  sets.insert(sets.end(), s.baseline.sets.begin(), s.baseline.sets.end());
  const Workload w = load_workload_file(s.workload_path, sets);
  return w.load.search && !w.load.search->fixed();
}

// From a paired calibration: the pairs that 95% power needs become the session's limit (looks
// still start at the rules' minimum, so a clear change stops early), or a statement that the
// budget cannot reach them and what it can reach.
void plan_from_calibration(AbArguments& a, const RuleSet& rules) {
  const std::string noise_path = a.noise.empty() ? default_noise_file(a) : a.noise;
  if (noise_path.empty()) {
    std::cout << "no paired calibration for this workload and machine (infergate calibrate "
                 "--paired): pairs are not sized in advance\n";
    return;
  }
  const NoiseProfile noise = load_noise_profile(noise_path);
  const Workload w = load_workload_file(a.settings.workload_path, a.settings.sets);
  const AbPlan plan = plan_ab(noise, rules, w.name, a.settings.design);
  if (plan.rules.empty()) {
    std::cout << noise_path
              << " has no paired calibration for these rules: pairs are not sized in advance\n";
    return;
  }
  std::cout << "calibration: " << noise_path << "\n";
  for (const std::string& line : describe_plan(plan, a.settings.design)) std::cout << line << "\n";
  if (plan.reachable && !a.max_pairs_given) {
    AbDesign& d = a.settings.design;
    d.max_pairs = std::max(plan.pairs, first_look(d, rules, w.name));
    std::cout << "  at most " << d.max_pairs << " pairs: by then every threshold is detectable\n";
  }
}

int report(const AbOutcome& o, const AbArguments& a) {
  if (!o.failed_requests.empty()) {
    for (const std::string& f : o.failed_requests)
      std::cerr << "infergate ab: refusing: " << f << "\n";
    std::cerr << "infergate ab: failed requests are not a measurement of the code; fix the run, or "
                 "give --allow-errors\n";
    return kExitUsage;
  }
  print_verdict_table(std::cout, o.comparison);
  std::cout << "stopped after " << o.pairs << " pairs (" << int(o.seconds)
            << " s): " << describe(o.stop) << "\n";
  for (const std::string& line : detectable_after(o.comparison, o.seconds / std::max(1, o.pairs))) {
    std::cout << "  " << line << "\n";
  }
  for (const std::string& f :
       write_report_files(a.settings.out_dir, o.comparison, o.baseline, o.candidate)) {
    std::cout << "report: " << f << "\n";
  }
  std::cout << "runs: " << o.baseline.source << " " << o.candidate.source << "\n";
  return o.comparison.exit_code();
}

}  // namespace

int ab_command(int argc, char** argv) {
  std::optional<AbArguments> args;
  try {
    args = parse(argc, argv);
  } catch (const po::error& e) {
    std::cerr << "infergate ab: " << e.what() << " (see --help)\n";
    return kExitUsage;
  }
  if (!args) return kExitPass;
  const RuleSet rules = load_rules_or_default(args->rules);
  check_report_files_writable(args->settings.out_dir);
  plan_from_calibration(*args, rules);
  args->settings.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  install_interrupt_handlers();
  try {
    if (bisects_capacity(args->settings)) {
      const CapacityProbePlan plan =
          plan_capacity_probes(args->settings, 1.25 * args->settings.design.budget_seconds);
      std::cout << plan.description << "\n";
      args->settings.sets.push_back(plan.search_set);
    }
    return report(run_ab(args->settings, rules), *args);
  } catch (const CapacityProbeError& e) {
    std::cerr << "infergate ab: " << e.what() << "\n";
    return kExitUsage;
  } catch (const Interrupted& e) {
    std::cerr << "infergate ab: " << e.what() << "; the pairs so far are in "
              << args->settings.out_dir << "\n";
    return 128 + interrupt_signal();
  }
}

}  // namespace infergate
