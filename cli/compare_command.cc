#include "cli/compare_command.h"

#include <unistd.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "bench/results/manifest.h"

#include "cli/command_line.h"
#include "cli/gate_inputs.h"
#include "cli/report_files.h"
#include "cli/verdict_table.h"
#include "gates/auto_repeat/auto_repeat.h"
#include "gates/baseline/noise_profile.h"
#include "gates/verdict/comparison.h"
#include "gates/verdict/error_share_check.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

struct CompareArguments {
  std::vector<std::string> files;  // [BASELINE] CANDIDATE
  std::string rules, store, report_dir, justification_root, noise;
  std::string baseline_bin, candidate_bin;
  int auto_repeat = 0;
  double budget_minutes = 10;  // --auto-repeat's reruns, all together
  bool allow_env_diff = false;
  bool allow_errors = false;
  bool paired = false;
};

std::optional<CompareArguments> parse(int argc, char** argv) {
  CompareArguments a;
  po::options_description desc(
      "infergate compare [BASELINE] CANDIDATE [options]\n"
      "Without BASELINE, the stored baseline for the candidate's workload and machine is used.\n"
      "Exit: 0 pass, 1 regression, 2 usage or input error (also: a side's requests failed beyond\n"
      "the rules' error-share limit), 3 inconclusive, 4 incomparable");
  desc.add_options()("help,h", "show this help")("files", po::value(&a.files)->multitoken(),
                                                 "results files")(
      "rules", po::value(&a.rules), "rules file (default: the built-in gates/default.json)")(
      "baselines", po::value(&a.store)->default_value("results"), "baseline store folder")(
      "allow-env-diff", "compare even when the machine, build or workload fingerprints differ")(
      "paired",
      "repetition i of each side ran next to the other's (infergate ab): judge the pairs' ratios")(
      "allow-errors",
      "compare even when a side's share of failed requests is above the rules' error-share limit")(
      "report-dir", po::value(&a.report_dir),
      "write verdicts.json, report.html, summary.md and junit.xml here")(
      "justification-root", po::value(&a.justification_root)->default_value("."),
      "where rules' justification files are looked up (the change's checkout)")(
      "noise", po::value(&a.noise),
      "noise calibration (default: BASELINE's .noise.json beside it, when there is one)")(
      "auto-repeat", po::value(&a.auto_repeat)->default_value(0),
      "while inconclusive, rerun both sides up to N more repetitions each")(
      "budget-minutes", po::value(&a.budget_minutes)->default_value(a.budget_minutes),
      "--auto-repeat: the reruns' time, all together; a rerun still going then is stopped")(
      "baseline-bin", po::value(&a.baseline_bin),
      "infergate binary that reproduces the baseline (default: this one, if same commit)")(
      "candidate-bin", po::value(&a.candidate_bin),
      "infergate binary that reproduces the candidate (default: this one, if same commit)");
  po::positional_options_description pos;
  pos.add("files", 2);
  const auto vm = parse_command_line(argc, argv, desc, pos);
  if (!vm) return std::nullopt;
  if (a.files.empty() || a.files.size() > 2) {
    throw po::error("give CANDIDATE, or BASELINE and CANDIDATE");
  }
  a.allow_env_diff = vm->count("allow-env-diff") > 0;
  a.allow_errors = vm->count("allow-errors") > 0;
  a.paired = vm->count("paired") > 0;
  if (a.paired && a.auto_repeat > 0) {
    throw po::error(
        "--auto-repeat reruns the sides apart, which breaks the pairs: use infergate ab");
  }
  if (a.auto_repeat < 0) throw po::error("--auto-repeat must be >= 0");
  if (!(a.budget_minutes > 0 && a.budget_minutes <= 24 * 60)) {
    throw po::error("--budget-minutes: more than 0, at most 1440");
  }
  return a;
}

// The binary that can rerun `side`: the one given, else this executable when the side was
// produced by this very build (same commit, clean), else none.
std::string rerun_binary(const std::string& given, const ResultsFile& side) {
  if (!given.empty()) return given;
  const nlohmann::json here = build_manifest("", 0)["git"];
  const nlohmann::json there = side.manifest.value("git", nlohmann::json::object());
  const bool same_build = here.value("commit", "unknown") != "unknown" &&
                          here.value("commit", "") == there.value("commit", "") &&
                          here.value("dirty", nlohmann::json()) == false &&
                          there.value("dirty", nlohmann::json()) == false;
  return same_build ? std::filesystem::read_symlink("/proc/self/exe").string() : "";
}

// --auto-repeat: reruns both sides in rounds of 2 while the comparison is inconclusive.
Comparison compare_with_repeats(ResultsFile& baseline, ResultsFile& candidate, const RuleSet& rules,
                                const CompareOptions& options, const CompareArguments& args) {
  Comparison c = compare_results(baseline, candidate, rules, options);
  if (args.auto_repeat == 0 || c.exit_code() != kExitInconclusive) return c;
  const std::string base_bin = rerun_binary(args.baseline_bin, baseline);
  const std::string cand_bin = rerun_binary(args.candidate_bin, candidate);
  if (base_bin.empty() || cand_bin.empty()) {
    c.warnings.push_back(std::string("--auto-repeat: cannot rerun the ") +
                         (base_bin.empty() ? "baseline" : "candidate") +
                         " (built from another commit or a dirty tree; give --" +
                         (base_bin.empty() ? "baseline" : "candidate") + "-bin)");
    return c;
  }
  const std::string scratch = "out/auto-repeat-" + std::to_string(::getpid());
  // Every rerun may take what is left of --budget-minutes: a hung binary is stopped and named
  // then, instead of holding the comparison for good.
  const auto start = std::chrono::steady_clock::now();
  const auto budget_left = [&] {
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return std::max(args.budget_minutes * 60 - spent, 1.0);
  };
  int added = 0;
  while (added < args.auto_repeat && c.exit_code() == kExitInconclusive) {
    if (added > 0 && budget_left() <= 1.0) {
      c.warnings.push_back("--auto-repeat: --budget-minutes spent after " + std::to_string(added) +
                           " more repetitions a side");
      break;
    }
    const int round = std::min(2, args.auto_repeat - added);
    std::cerr << "inconclusive: rerunning both sides " << round << " more time(s) ("
              << added + round << "/" << args.auto_repeat << ")\n";
    append_repetitions(baseline, base_bin, round, scratch, "baseline", budget_left());
    append_repetitions(candidate, cand_bin, round, scratch, "candidate", budget_left());
    added += round;
    c = compare_results(baseline, candidate, rules, options);
  }
  c.extra_repetitions = added;
  return c;
}

void add_noise_warnings(Comparison& c, const std::string& noise_path, double alpha) {
  if (noise_path.empty()) {
    c.warnings.push_back(
        "no noise calibration for this baseline: thresholds are not checked "
        "against run-to-run spread (infergate calibrate)");
    return;
  }
  const NoiseProfile noise = load_noise_profile(noise_path);
  for (RuleEvaluation& e : c.evaluations) {
    if (auto w = threshold_warning(noise, e, alpha)) e.warnings.push_back(*w);
  }
}

// Sides whose requests failed beyond the rules' limit: refused (exit 2) unless --allow-errors,
// then judged, with the comparison's warnings saying so.
std::vector<std::string> error_share_problems(const ResultsFile& baseline,
                                              const ResultsFile& candidate, const RuleSet& rules) {
  std::vector<std::string> problems = error_share_excesses(baseline, rules, "baseline");
  for (std::string& p : error_share_excesses(candidate, rules, "candidate")) {
    problems.push_back(std::move(p));
  }
  return problems;
}

bool refuse_failed_requests(const ResultsFile& baseline, const ResultsFile& candidate,
                            const RuleSet& rules, const CompareArguments& args) {
  const std::vector<std::string> failed = error_share_problems(baseline, candidate, rules);
  if (failed.empty() || args.allow_errors) return false;
  for (const std::string& f : failed) std::cerr << "infergate compare: refusing: " << f << "\n";
  std::cerr << "infergate compare: failed requests are not a measurement of the code; fix the "
               "run, or give --allow-errors to compare anyway\n";
  return true;
}

}  // namespace

int compare_command(int argc, char** argv) {
  std::optional<CompareArguments> args;
  try {
    args = parse(argc, argv);
  } catch (const po::error& e) {
    std::cerr << "infergate compare: " << e.what() << " (see --help)\n";
    return kExitUsage;
  }
  if (!args) return kExitPass;
  ResultsFile candidate = load_results(args->files.back());
  const std::string baseline_file = args->files.size() == 2 ? args->files.front() : "";
  ResultsFile baseline = load_baseline(baseline_file, args->store, candidate);
  const RuleSet rules = load_rules_or_default(args->rules);
  if (refuse_failed_requests(baseline, candidate, rules, *args)) return kExitUsage;
  if (!args->report_dir.empty()) check_report_files_writable(args->report_dir);  // before reruns
  CompareOptions options;
  options.allow_env_diff = args->allow_env_diff;
  options.justification_root = args->justification_root;
  options.paired = args->paired;
  Comparison c = compare_with_repeats(baseline, candidate, rules, options, *args);
  // --auto-repeat's new repetitions are held to the same limit.
  if (refuse_failed_requests(baseline, candidate, rules, *args)) return kExitUsage;
  if (c.comparable) {
    add_noise_warnings(c, args->noise.empty() ? noise_file_beside(baseline.source) : args->noise,
                       rules.alpha);
  }
  print_verdict_table(std::cout, c);
  if (!args->report_dir.empty()) {
    for (const std::string& f : write_report_files(args->report_dir, c, baseline, candidate)) {
      std::cout << "report: " << f << "\n";
    }
  }
  return c.exit_code();
}

}  // namespace infergate
