#include "cli/bisect_command.h"

#include <unistd.h>

#include <boost/program_options.hpp>
#include <climits>
#include <filesystem>
#include <iostream>
#include <optional>

#include "bench/workload/workload_parser.h"
#include "cli/command_line.h"
#include "common/io/json_file.h"
#include "common/report/metric_format.h"
#include "common/util/shell_quote.h"
#include "common/util/time_stamp.h"
#include "gates/bisect/bisect_report.h"
#include "gates/bisect/bisect_session.h"
#include "gates/bisect/bisect_step.h"
#include "gates/bisect/content_hash.h"
#include "gates/process/interrupt.h"

namespace infergate {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// Fewer repetitions a side can never make the one-sided U test significant at alpha 0.05.
constexpr int kMinRepeat = 4;

// This very infergate, which `git bisect run` starts for every step.
std::string self_executable() {
  char path[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
  if (n <= 0) throw std::runtime_error("cannot find this infergate (/proc/self/exe)");
  return std::string(path, size_t(n));
}

std::string command_line(int argc, char** argv) {
  std::string text = "infergate";
  for (int i = 0; i < argc; ++i) text += " " + shell_quote(argv[i]);
  return text;
}

Direction direction(const std::string& better, const MetricKey& key) {
  if (better == "lower") return Direction::kLowerIsBetter;
  if (better == "higher") return Direction::kHigherIsBetter;
  if (!better.empty()) {
    throw std::invalid_argument("--better is '" + better + "' (allowed: lower, higher)");
  }
  if (const std::optional<Direction> d = default_direction(key)) return *d;
  throw std::invalid_argument("cannot tell from its name which way " + key.text +
                              " is better: pass --better lower or --better higher");
}

void print_start(const GitRepo& repo, const BisectSettings& s, std::ostream& out) {
  out << "bisect: good " << s.good.substr(0, 10) << " (" << repo.subject(s.good) << "), bad "
      << s.bad.substr(0, 10) << " (" << repo.subject(s.bad) << ")\n"
      << "bisect: " << s.metric << ", " << to_string(s.better) << " is better, threshold "
      << format_number(s.threshold * 100, 3) << "%, ";
  if (s.paired) {
    out << "paired runs in ABBA order from " << s.measure.repetitions << " pairs (up to "
        << s.design.max_pairs << " or " << format_number(s.design.budget_seconds / 60, 3)
        << " minutes a comparison), pairs in " << s.pairs_dir << "\n";
  } else {
    out << s.measure.repetitions << " repetitions a round (up to " << s.max_repeat_rounds
        << " more while inconclusive)\n";
  }
  out << "bisect: builds in " << s.cache_dir << "\n";
}

// Bisect judges one metric at one point: a sweep would only be refused by the first commit's
// measurement, after its worktree and build. This infergate reads the workload as the commits'
// builds will; one it cannot read is left to them (an older or newer format may be theirs).
void check_single_point(const std::string& workload_path, const std::vector<std::string>& sets) {
  std::optional<Workload> w;
  try {
    w = load_workload_file(workload_path, sets);
  } catch (const std::exception&) {
    return;
  }
  if (w->sweep && w->sweep->values.size() > 1) {
    throw std::invalid_argument(
        "--workload " + workload_path + " sweeps " + w->sweep->field + " over " +
        std::to_string(w->sweep->values.size()) +
        " values and bisect judges one point: drop the sweep with --set sweep=null and pick the "
        "value with --set (e.g. --set " +
        w->sweep->field + "=" + format_number(w->sweep->values.front(), 6) + ")");
  }
}

}  // namespace

int bisect_command(int argc, char** argv) {
  std::string good, bad, workload, metric, better, repo_dir = ".", cache_dir, out_dir;
  std::vector<std::string> sets;
  double threshold_pct = 5;
  int repeat = 5, max_rounds = 2;
  AbDesign design;
  double budget_minutes = design.budget_seconds / 60;
  BuildSpec build;
  po::options_description desc(
      "infergate bisect --good REV --bad REV --workload FILE --metric KEY [options]");
  desc.add_options()("help,h", "show this help")("good", po::value(&good)->required(),
                                                 "a commit without the regression")(
      "bad", po::value(&bad)->required(), "a later commit with it")(
      "workload", po::value(&workload)->required(), "workload file, run at every tested commit")(
      "metric", po::value(&metric)->required(),
      "results-file key judged, e.g. summary.tpot_ms.p95")(
      "threshold", po::value(&threshold_pct)->default_value(5),
      "relative change (percent) that counts as a regression")(
      "better", po::value(&better),
      "lower|higher (default: lower for *_ms, *_s, *_bytes; higher for *_rps, *_tps)")(
      "repeat", po::value(&repeat)->default_value(5),
      "repetitions per round at every commit (>= 4)")(
      "max-repeat-rounds", po::value(&max_rounds)->default_value(2),
      "more rounds of --repeat for a commit still inconclusive, before it is skipped")(
      "set", po::value(&sets)->composing(), "override a workload field in every run (repeatable)")(
      "repo", po::value(&repo_dir), "the git repository (default: the one containing .)")(
      "build-cmd", po::value(&build.command),
      "build command (sh -c, in the commit's worktree; SOURCE_DIR and BUILD_DIR set; default: "
      "a Release CMake build of the infergate target)")(
      "binary", po::value(&build.binary)->default_value(kDefaultBinary),
      "the infergate the build makes, relative to BUILD_DIR")(
      "cache-dir", po::value(&cache_dir),
      "worktrees, builds and measurements (default $XDG_CACHE_HOME/infergate/bisect or "
      "~/.cache/infergate/bisect)")("out-dir", po::value(&out_dir),
                                    "bisect.json and bisect.md (default out/bisect-TIMESTAMP)")(
      "remeasure", "measure every commit again instead of reusing cached measurements")(
      "paired",
      "judge every commit in pairs with an end's build, run alternately in ABBA order (drift "
      "cancels; never cached); --repeat is then the pairs before the first look")(
      "max-pairs", po::value(&design.max_pairs)->default_value(design.max_pairs),
      "with --paired: the most pairs of one comparison")(
      "budget-minutes", po::value(&budget_minutes)->default_value(budget_minutes),
      "with --paired: the time one comparison may take");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  if (repeat < kMinRepeat) {
    throw std::invalid_argument(
        "--repeat " + std::to_string(repeat) + " is too few: with fewer than " +
        std::to_string(kMinRepeat) +
        " repetitions a side the one-sided U test can never be significant at alpha 0.05, so "
        "no commit could be found bad");
  }
  if (max_rounds < 0) throw std::invalid_argument("--max-repeat-rounds must be >= 0");
  if (!(threshold_pct > 0)) throw std::invalid_argument("--threshold must be > 0 (percent)");
  if (design.max_pairs < repeat || design.max_pairs > 1000) {
    throw std::invalid_argument("--max-pairs " + std::to_string(design.max_pairs) + " is outside " +
                                std::to_string(repeat) +
                                "..1000 (at least --repeat, the pairs before the first look)");
  }
  if (!(budget_minutes > 0 && budget_minutes <= 24 * 60)) {
    throw std::invalid_argument("--budget-minutes must be in (0, 1440]");
  }

  const GitRepo repo = GitRepo::open(fs::absolute(repo_dir).string());
  BisectSettings s;
  s.repo_dir = repo.toplevel();
  s.good = repo.resolve_commit(good);
  s.bad = repo.resolve_commit(bad);
  const MetricKey key = parse_metric_key(metric);
  s.metric = key.text;
  s.better = direction(better, key);
  s.threshold = threshold_pct / 100;
  s.max_repeat_rounds = max_rounds;
  s.build = build;
  s.cache_dir = repo_cache_dir(cache_dir.empty() ? default_cache_dir() : cache_dir, repo);
  s.measure.workload_path = fs::absolute(workload).lexically_normal().string();
  file_content_hash(s.measure.workload_path);  // a missing file is reported now, by name
  check_single_point(s.measure.workload_path, sets);
  s.measure.sets = sets;
  s.measure.repetitions = repeat;
  s.measure.reuse = parsed->count("remeasure") == 0;
  s.measure.working_dir = fs::current_path().string();
  const fs::path out =
      fs::absolute(out_dir.empty() ? "out/bisect-" + local_compact_now() : out_dir);
  s.paired = parsed->count("paired") > 0;
  s.design = design;
  s.design.min_pairs = repeat;
  s.design.budget_seconds = budget_minutes * 60;
  s.pairs_dir = (out / "pairs").string();
  for (const char* name : {"bisect.json", "bisect.md"}) {
    check_writable((out / name).string());  // before the bisect, not after it
  }

  install_interrupt_handlers();
  print_start(repo, s, std::cerr);
  BisectReport report;
  try {
    report =
        run_bisect(repo, s, self_executable(), (out / "git-bisect-run.log").string(), std::cerr);
  } catch (const Interrupted& e) {
    std::cerr << "infergate bisect: " << e.what()
              << "; the temporary worktree was removed, your checkout is untouched\n";
    return 128 + interrupt_signal();
  }
  report.command = command_line(argc, argv);
  report.created_at = utc_iso8601_now();
  write_json_atomically(bisect_report_json(report), (out / "bisect.json").string());
  write_text_atomically(bisect_report_markdown(report), (out / "bisect.md").string());
  std::cout << bisect_report_text(report) << "\nreport: " << (out / "bisect.json").string() << ", "
            << (out / "bisect.md").string() << "\n";
  return bisect_exit_code(report.status);
}

int bisect_step_command(int argc, char** argv) {
  // Anything but 0, 1 and 125 stops `git bisect run`: an error here must not read as "bad".
  constexpr int kStopBisect = 128;
  try {
    std::string state;
    po::options_description desc("infergate bisect-step --state FILE (started by git bisect run)");
    desc.add_options()("help,h", "show this help")("state", po::value(&state)->required(),
                                                   "the bisect's state file");
    const auto parsed = parse_command_line(argc, argv, desc);
    if (!parsed) return 0;
    install_interrupt_handlers();
    return run_bisect_step(state, std::cerr);
  } catch (const Interrupted& e) {
    std::cerr << "infergate bisect-step: " << e.what() << "\n";
    return 128 + interrupt_signal();
  } catch (const std::exception& e) {
    std::cerr << "infergate bisect-step: error: " << e.what() << "\n";
    return kStopBisect;
  }
}

}  // namespace infergate
