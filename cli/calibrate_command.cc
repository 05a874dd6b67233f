#include "cli/calibrate_command.h"

#include <unistd.h>

#include <atomic>
#include <boost/program_options.hpp>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <utility>

#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "cli/command_line.h"
#include "cli/gate_inputs.h"
#include "common/io/json_file.h"
#include "gates/baseline/baseline_store.h"
#include "gates/calibrate/calibration.h"
#include "gates/calibrate/paired_calibration.h"
#include "gates/process/interrupt.h"
#include "gates/verdict/verdict.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

struct CalibrateArguments {
  std::string workload, from, slowed_from, rules, store, noise_out, runs_out;
  std::vector<std::string> sets;
  int repeat = 20, reps_per_side = 0, trials = 200, auto_repeat = 0;
  double check_slowdown = 0;
  std::vector<double> slowdowns;  // every --check-slowdown (several only with --paired)
  bool paired = false;
  int max_pairs = 60;
  double budget_minutes = 10;
};

// Ctrl-C (or SIGTERM) during the in-process runs: the run stops at once and still writes the
// repetitions made so far, marked incomplete, as `run` does; calibrate then exits 128 + signal.
std::atomic<bool> g_stop{false};
std::atomic<int> g_stop_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "used from a signal handler");

void on_stop_signal(int sig) {
  g_stop_signal.store(sig);
  g_stop.store(true);
}

// Runs the workload in this process with `sets` and returns its results (also written to
// `out_path`). Throws Interrupted after Ctrl-C, the runs so far kept in `out_path`.
ResultsFile run_repetitions(const std::string& workload_path, std::vector<std::string> sets,
                            int repeat, const std::string& out_path) {
  sets.push_back("repetitions=" + std::to_string(repeat));
  sets.push_back("record_requests=true");
  const Workload workload = load_workload_file(workload_path, sets);
  RunOptions options;
  options.out_path = out_path;
  options.progress_is_tty = isatty(STDERR_FILENO);
  options.command_line = "infergate calibrate " + workload_path;
  options.stop = &g_stop;
  const RunOutcome outcome = run_workload(workload, options);
  if (outcome.incomplete && g_stop.load()) {
    throw Interrupted("interrupted; the repetitions run so far are in " + out_path +
                      " (marked incomplete)");
  }
  if (outcome.incomplete)
    throw std::runtime_error(out_path + ": the calibration run stopped early");
  std::cout << "runs: " << out_path << "\n";
  return parse_results(outcome.results, out_path);
}

void print_rates(const char* title, const std::vector<VerdictCounts>& counts) {
  int trials = 0, regressed = 0, inconclusive = 0;
  std::printf("%s\n  %-20s %8s %8s %10s %8s %13s\n", title, "rule", "trials", "pass", "regressed",
              "improved", "inconclusive");
  for (const VerdictCounts& c : counts) {
    std::printf("  %-20s %8d %8d %10d %8d %13d\n", c.rule.c_str(), c.trials, c.pass, c.regressed,
                c.improved, c.inconclusive);
    if (c.rule == kGateRow) continue;
    trials += c.trials;
    regressed += c.regressed;
    inconclusive += c.inconclusive;
  }
  std::printf("  rule evaluations: %d, regressed %.2f%%, inconclusive %.2f%%\n", trials,
              trials ? 100.0 * regressed / trials : 0.0,
              trials ? 100.0 * inconclusive / trials : 0.0);
  const VerdictCounts& gate = counts.back();
  // As compare would exit on the same runs: regressed 1, inconclusive 3 (both fail a CI job).
  const auto share = [&](int n) { return gate.trials ? 100.0 * n / gate.trials : 0.0; };
  std::printf(
      "  comparisons: %d; the gate passed %d (%.1f%%), regressed %d (%.1f%%), was inconclusive "
      "%d (%.1f%%)\n",
      gate.trials, gate.pass, share(gate.pass), gate.regressed, share(gate.regressed),
      gate.inconclusive, share(gate.inconclusive));
}

// Counts that would make the calibration measure nothing (zero trials, zero repetitions a
// side) are refused rather than reported as a calibration.
void check_counts(const CalibrateArguments& a, const po::variables_map& vm) {
  if (a.trials < 1 || a.trials > 1'000'000) {
    throw po::error("--trials " + std::to_string(a.trials) + ": allowed: 1 to 1000000");
  }
  if (vm.count("reps-per-side") && (a.reps_per_side < 2 || a.reps_per_side > 1000)) {
    throw po::error("--reps-per-side " + std::to_string(a.reps_per_side) +
                    ": allowed: 2 to 1000 (leave it out for the rules' largest minimum)");
  }
  if (a.repeat < 2 || a.repeat > 10'000) {
    throw po::error("--repeat " + std::to_string(a.repeat) + ": allowed: 2 to 10000");
  }
  if (a.auto_repeat < 0 || a.auto_repeat > 1000) {
    throw po::error("--auto-repeat " + std::to_string(a.auto_repeat) + ": allowed: 0 to 1000");
  }
}

// --slowed-from is read only for --check-slowdown, after the A/A runs: a missing file or a
// forgotten --check-slowdown is said now, not after minutes of runs (or never).
void check_slowed_from(const CalibrateArguments& a) {
  if (a.check_slowdown <= 0) {
    throw po::error("--slowed-from " + a.slowed_from +
                    " needs --check-slowdown F (the slowdown "
                    "those runs were made with)");
  }
  if (a.paired) throw po::error("--slowed-from is not read with --paired (use --from DIR)");
  std::error_code ec;
  if (!std::filesystem::is_regular_file(a.slowed_from, ec)) {
    throw po::error("--slowed-from " + a.slowed_from + ": no such file");
  }
}

std::optional<CalibrateArguments> parse(int argc, char** argv) {
  CalibrateArguments a;
  po::options_description desc("infergate calibrate WORKLOAD [options]");
  desc.add_options()("help,h", "show this help")("workload", po::value(&a.workload),
                                                 "workload file")(
      "repeat", po::value(&a.repeat)->default_value(a.repeat), "A/A repetitions to run")(
      "set", po::value(&a.sets)->composing(), "override a workload field (repeatable)")(
      "from", po::value(&a.from), "use these results instead of running (A/A repetitions)")(
      "rules", po::value(&a.rules), "rules file (default: built-in gates/default.json)")(
      "baselines", po::value(&a.store)->default_value("results"), "baseline store folder")(
      "noise-out", po::value(&a.noise_out), "noise file (default: beside the stored baseline)")(
      "runs-out", po::value(&a.runs_out), "results file of the runs (default under out/)")(
      "reps-per-side", po::value(&a.reps_per_side),
      "repetitions per side in resampled comparisons (default: the rules' largest minimum)")(
      "trials", po::value(&a.trials)->default_value(a.trials), "resampled comparisons")(
      "auto-repeat", po::value(&a.auto_repeat)->default_value(0),
      "model compare --auto-repeat N: more repetitions while the gate is inconclusive")(
      "check-slowdown", po::value(&a.slowdowns)->composing(),
      "also run with each decoding step this fraction slower (e.g. 0.1) and report detection "
      "(repeatable with --paired)")(
      "paired",
      "calibrate infergate ab: rounds of fresh-process runs (two unchanged, one per slowdown); "
      "--repeat is the rounds, --from a folder of an earlier --paired calibration")(
      "max-pairs", po::value(&a.max_pairs)->default_value(a.max_pairs),
      "--paired: ab's pair limit")(
      "budget-minutes", po::value(&a.budget_minutes)->default_value(a.budget_minutes),
      "--paired: ab's time budget")("slowed-from", po::value(&a.slowed_from),
                                    "use these results as the slowed runs instead of running them");
  po::positional_options_description pos;
  pos.add("workload", 1);
  const auto vm = parse_command_line(argc, argv, desc, pos);
  if (!vm) return std::nullopt;
  if (a.workload.empty() == a.from.empty()) throw po::error("give WORKLOAD or --from RESULTS");
  a.paired = vm->count("paired") > 0;
  for (double f : a.slowdowns) {
    if (!(f > 0 && f <= 10)) throw po::error("--check-slowdown: more than 0, at most 10");
  }
  if (a.slowdowns.size() > 1 && !a.paired)
    throw po::error("several --check-slowdown need --paired");
  if (a.paired && (a.repeat < 4 || a.repeat > 1000))
    throw po::error("--paired --repeat: 4..1000 rounds");
  if (a.paired && !(a.budget_minutes > 0 && a.max_pairs >= 2)) {
    throw po::error("--paired needs --budget-minutes > 0 and --max-pairs >= 2");
  }
  check_counts(a, *vm);
  a.check_slowdown = a.slowdowns.empty() ? 0 : a.slowdowns.front();
  if (!a.slowed_from.empty()) check_slowed_from(a);
  if (a.check_slowdown > 0 && a.workload.empty() && a.slowed_from.empty()) {
    throw po::error("--check-slowdown needs WORKLOAD (to run the slowed build) or --slowed-from");
  }
  return a;
}

void print_noise(const AaCalibration& aa, const CalibrationDesign& design, double alpha) {
  std::printf("run-to-run spread over %d repetitions (%s):\n", aa.noise.repetitions,
              aa.noise.workload.c_str());
  for (const MetricNoise& m : aa.noise.metrics) {
    std::printf("  %-32s mean %-12.4g cv %5.2f%%  detectable with %d per side: %5.1f%%\n",
                m.key.c_str(), m.mean, 100 * m.cv, design.reps_per_side,
                100 * detectable_change(m.cv, design.reps_per_side, alpha));
  }
}

std::string design_text(const CalibrationDesign& d) {
  const std::string k = std::to_string(d.reps_per_side);
  return k + " vs " + k + " repetitions" +
         (d.auto_repeat ? " (auto-repeat " + std::to_string(d.auto_repeat) + ")" : "") + ", " +
         std::to_string(d.trials) + " resampled comparisons";
}

// The slowed runs: loaded from --slowed-from, or run with the delay that makes a step
// --check-slowdown slower; returns them with the delay they ran with.
std::pair<ResultsFile, int64_t> slowed_runs(const CalibrateArguments& args, const ResultsFile& runs,
                                            const std::string& stamp) {
  if (!args.slowed_from.empty()) {
    ResultsFile slowed = load_results(args.slowed_from);
    const int64_t delay = injected_delay_us(slowed);
    std::printf("slowed runs: %s (%lld us per decoding step)\n", slowed.source.c_str(),
                static_cast<long long>(delay));
    return {std::move(slowed), delay};
  }
  const int64_t delay = slowdown_delay_us(runs, args.check_slowdown);
  std::printf("injecting %lld us per decoding step (%.0f%% of the mean step execute time)\n",
              static_cast<long long>(delay), 100 * args.check_slowdown);
  std::vector<std::string> sets = args.sets;
  sets.push_back("target.engine.debug.inject_decode_delay_us=" + std::to_string(delay));
  return {
      run_repetitions(args.workload, sets, args.repeat, "out/calibrate-slowed-" + stamp + ".json"),
      delay};
}

// Whether the workload searches for its capacity by bisection: the rounds then probe fixed
// loads around its capacity, as ab's pairs do.
bool bisects_capacity(const std::string& workload, const std::vector<std::string>& sets) {
  const Workload w = load_workload_file(workload, sets);
  return w.load.search && !w.load.search->fixed();
}

// The calibration itself; throws Interrupted on Ctrl-C, what was run kept.
int calibrate(const CalibrateArguments& args, const RuleSet& rules) {
  if (args.paired) {
    if (!args.noise_out.empty()) check_writable(args.noise_out);
    const bool search = args.from.empty() && bisects_capacity(args.workload, args.sets);
    return calibrate_paired(
        {args.workload, args.from, args.sets, args.slowdowns, args.repeat, args.trials,
         args.max_pairs, args.budget_minutes, args.noise_out, args.store, search},
        rules);
  }
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  const std::string stamp = std::to_string(::time(nullptr));
  const std::string runs_out =
      args.runs_out.empty() ? "out/calibrate-" + stamp + ".json" : args.runs_out;
  if (!args.noise_out.empty()) check_writable(args.noise_out);  // before the runs, not after
  if (args.from.empty()) check_writable(runs_out);
  const ResultsFile runs = args.from.empty()
                               ? run_repetitions(args.workload, args.sets, args.repeat, runs_out)
                               : load_results(args.from);
  const CalibrationDesign design =
      calibration_design(rules, args.reps_per_side, args.auto_repeat, args.trials);
  AaCalibration aa = calibrate_aa(runs, rules, design);
  print_noise(aa, design, rules.alpha);
  print_rates(("A/A false alarms, " + design_text(design) + ":").c_str(), aa.counts);
  if (args.check_slowdown > 0) {
    const auto [slowed, delay] = slowed_runs(args, runs, stamp);
    const std::vector<VerdictCounts> ab =
        detect_slowdown(runs, slowed, rules, design, args.check_slowdown, delay, aa.noise);
    print_rates(("detection of the slowed runs (measured: " +
                 format_measured_change(aa.noise.verdict_rates.back()["measured_change"]) +
                 " against the A/A runs), " + design_text(design) + ":")
                    .c_str(),
                ab);
  }
  const std::string out =
      !args.noise_out.empty()
          ? args.noise_out
          : BaselineStore(args.store).noise_path(aa.noise.machine_key, aa.noise.workload);
  write_json_atomically(noise_to_json(aa.noise), out);
  std::cout << "noise: " << out << "\n";
  return kExitPass;
}

}  // namespace

int calibrate_command(int argc, char** argv) {
  std::optional<CalibrateArguments> args;
  try {
    args = parse(argc, argv);
  } catch (const po::error& e) {
    std::cerr << "infergate calibrate: " << e.what() << " (see --help)\n";
    return kExitUsage;
  }
  if (!args) return kExitPass;
  const RuleSet rules = load_rules_or_default(args->rules);
  try {
    return calibrate(*args, rules);
  } catch (const Interrupted& e) {
    std::cerr << "infergate calibrate: " << e.what() << "\n";
    return 128 + (g_stop_signal.load() ? g_stop_signal.load() : interrupt_signal());
  }
}

}  // namespace infergate
