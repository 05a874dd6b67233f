#include "cli/history_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>

#include "cli/command_line.h"
#include "cli/history_bisect.h"
#include "cli/history_calibrate.h"
#include "cli/history_detect.h"
#include "cli/history_serve.h"
#include "common/io/json_file.h"
#include "gates/process/interrupt.h"
#include "gates/report/html_report.h"
#include "gates/verdict/verdict.h"
#include "history/dashboard_site.h"
#include "history/history_export.h"
#include "history/history_import.h"
#include "history/history_retention.h"
#include "history/history_store.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// Ctrl-C stops between files: the file being stored is stored whole (as is the schema of a
// new database), and the exit says the rest was not.
int interrupted_after(size_t done, size_t total) {
  std::cerr << "infergate history: interrupted; " << done << " of " << total
            << " files handled, the rest not added\n";
  return 128 + interrupt_signal();
}

int add(HistoryStore& store, const std::vector<std::string>& files) {
  if (files.empty()) throw po::error("history add takes one or more RESULTS files");
  for (size_t i = 0; i < files.size(); ++i) {
    if (interrupt_signal()) return interrupted_after(i, files.size());
    const std::string& f = files[i];
    const AddOutcome o = store.add(f);
    std::cout << (o.added ? "stored " : "already stored ") << f << " as run " << o.id << "\n";
  }
  return kExitPass;
}

int list(const HistoryStore& store, const std::string& workload) {
  const std::vector<StoredRun> runs = store.runs(workload);
  if (runs.empty()) std::cout << "no runs stored in " << store.path() << "\n";
  for (const StoredRun& r : runs) {
    std::cout << "run " << r.id << "  " << r.workload << "  " << r.machine_key << "  commit "
              << r.commit.substr(0, 12) << (r.dirty ? "+dirty" : "") << "  " << r.created_at
              << "\n";
  }
  return kExitPass;
}

int export_history(const HistoryStore& store, const std::string& workload,
                   const std::string& format, const std::string& out) {
  if (format != "json" && format != "csv") {
    throw po::error("--format " + format + ": allowed: json, csv");
  }
  const std::string text = format == "json" ? history_to_json(store, workload).dump(2) + "\n"
                                            : history_to_csv(store, workload);
  if (out.empty()) {
    std::cout << text;
  } else {
    write_text_atomically(text, out);
  }
  return kExitPass;
}

// The one id an action takes: a run's (history list) or a change point's (history detect).
int64_t id_argument(const std::vector<std::string>& args, const std::string& what) {
  if (args.size() != 1) throw po::error("takes one " + what + " id");
  size_t used = 0;
  int64_t id = 0;
  try {
    id = std::stoll(args[0], &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != args[0].size() || id < 1) {
    throw po::error("'" + args[0] + "' is not a " + what + " id (a number from history " +
                    (what == "run" ? "list" : "detect") + ")");
  }
  return id;
}

// `show RUN --out FILE`: the stored results file, byte for byte, for compare or report.
int show(const HistoryStore& store, const std::vector<std::string>& args, const std::string& out) {
  const std::string text = store.results_text(id_argument(args, "run"));
  if (out.empty()) {
    std::cout << text;
  } else {
    write_text_atomically(text, out);
  }
  return kExitPass;
}

int import(HistoryStore& store, const std::vector<std::string>& paths) {
  if (paths.empty()) throw po::error("history import takes one or more files or folders");
  const ImportReport r = import_results(store, paths, [] { return interrupt_signal() != 0; });
  std::cout << "imported " << r.added << " results file" << (r.added == 1 ? "" : "s") << ", "
            << r.already_stored << " already stored, " << r.not_results
            << " other JSON files passed over\n";
  for (const auto& [file, why] : r.not_json)
    std::cerr << "not JSON: " << file << ": " << why << "\n";
  for (const auto& [file, why] : r.refused) std::cerr << "refused " << file << ": " << why << "\n";
  if (r.stopped) {
    std::cerr << "infergate history: interrupted; the files after these were not looked at\n";
    return 128 + interrupt_signal();
  }
  return r.refused.empty() && r.not_json.empty() ? kExitPass : kExitUsage;
}

int prune(HistoryStore& store, const po::variables_map& vm, const std::string& workload) {
  RetentionPolicy p;
  if (vm.count("keep-runs")) p.keep_runs = vm["keep-runs"].as<int>();
  if (vm.count("max-age-days")) p.max_age_days = vm["max-age-days"].as<double>();
  p.workload = workload;
  p.files_only = vm["files-only"].as<bool>();
  p.dry_run = vm["dry-run"].as<bool>();
  const PruneOutcome o = prune_history(store, p);
  std::cout << (p.dry_run ? "would prune " : "pruned ") << o.runs.size()
            << (p.files_only ? " runs' results files (" : " runs (") << o.bytes
            << " compressed bytes); runs at the ends of change points are kept\n";
  return kExitPass;
}

int dashboard(HistoryStore& store, const po::variables_map& vm, const DetectRequest& detect,
              const std::string& out) {
  DashboardSettings s;
  s.filter = detect.filter;
  s.detect = !vm["no-detect"].as<bool>();
  s.detect_settings = detect.settings;
  s.run_reports = !vm["no-run-reports"].as<bool>();
  s.run_report = [](const ResultsFile& r) { return html_run_report(r); };
  const std::string dir = out.empty() ? "out/history-dashboard" : out;
  const DashboardOutcome o = write_dashboard(store, dir, s);
  std::cout << "dashboard: " << dir << "/index.html (" << o.pages
            << " pages; run reports: " << o.reports_written << " written, " << o.reports_kept
            << " already there)\n";
  return kExitPass;
}

int serve(HistoryStore& store, const po::variables_map& vm, const DetectRequest& detect) {
  const int port = vm["port"].as<int>();
  if (port < 0 || port > 65535) throw po::error("--port: allowed: 0 to 65535");
  DashboardSettings s;
  s.filter = detect.filter;
  s.detect = !vm["no-detect"].as<bool>();
  s.detect_settings = detect.settings;
  s.run_report = [](const ResultsFile& r) { return html_run_report(r); };
  return history_serve(store, s, "127.0.0.1", uint16_t(port));
}

// A --metric the history never stores would match no series and read as "no change": named
// instead, with the names it can be (distributions once, with their statistics).
void check_metric_names(const std::vector<std::string>& metrics) {
  const std::vector<std::string> known = storable_metric_names();
  for (const std::string& m : metrics) {
    if (std::find(known.begin(), known.end(), m) != known.end()) continue;
    std::string distributions, values;
    for (const std::string& k : known) {
      if (k.ends_with(".p50")) distributions += " " + k.substr(0, k.size() - 4);
      if (k.find('.') == std::string::npos) values += " " + k;
    }
    throw po::error("--metric " + m +
                    ": not a metric the history stores; distributions, as NAME.mean, .p50, "
                    ".p90, .p95 or .p99:" +
                    distributions + "; values:" + values);
  }
}

// Detection's settings, checked before anything is read.
DetectRequest detect_request(const po::variables_map& vm, DetectRequest r) {
  check_metric_names(r.filter.metrics);
  EDivisiveOptions& e = r.settings.e_divisive;
  e.alpha = vm["alpha"].as<double>();
  e.permutations = vm["permutations"].as<int>();
  r.settings.min_effect = vm["min-effect"].as<double>();
  if (!(e.alpha > 0 && e.alpha < 1)) throw po::error("--alpha: allowed: (0, 1)");
  if (e.permutations < 1 || e.permutations > 100'000) {
    throw po::error("--permutations: allowed: 1 to 100000");
  }
  if (e.alpha * (e.permutations + 1) < 1) {
    throw po::error("--permutations " + std::to_string(e.permutations) +
                    " cannot give a p-value at or below --alpha; use at least " +
                    std::to_string(int(std::ceil(1 / e.alpha)) - 1));
  }
  if (!(r.settings.min_effect >= 0 && r.settings.min_effect < 10)) {
    throw po::error("--min-effect: allowed: 0 to 10 (a fraction: 0.05 is 5%)");
  }
  if (r.format != "text" && r.format != "json" && r.format != "markdown") {
    throw po::error("--format " + r.format + ": allowed for detect: text, json, markdown");
  }
  return r;
}

CalibrateRequest calibrate_request(const po::variables_map& vm, DetectRequest detect,
                                   const std::string& workload, const std::string& format,
                                   const std::string& out) {
  if (workload.empty()) throw po::error("history calibrate needs --workload (the A/A runs)");
  detect.format = vm["format"].defaulted() ? "text" : format;
  if (detect.format != "text" && detect.format != "json") {
    throw po::error("--format " + format + ": allowed for calibrate: text, json");
  }
  CalibrateRequest r;
  r.filter = detect.filter;
  r.filter.workload = workload;
  r.settings.detect = detect_request(vm, detect).settings;
  r.settings.trials = vm["trials"].as<int>();
  r.settings.length = size_t(std::max(vm["length"].as<int>(), 0));
  r.settings.step = vm["step"].as<double>();
  r.format = detect.format;
  r.out = out;
  if (r.settings.trials < 1 || r.settings.trials > 1'000'000) {
    throw po::error("--trials: allowed: 1 to 1000000");
  }
  if (vm["length"].as<int>() < 5 || vm["length"].as<int>() > 2'000) {
    throw po::error("--length: allowed: 5 to 2000");
  }
  if (!(r.settings.step > 0 && r.settings.step < 1)) {
    throw po::error("--step: allowed: (0, 1), a fraction");
  }
  return r;
}

}  // namespace

int history_command(int argc, char** argv) {
  // history bisect ID -- BISECT OPTIONS: what follows "--" is bisect's.
  std::vector<std::string> bisect_args;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) != "--") continue;
    bisect_args.assign(argv + i + 1, argv + argc);
    argc = i;
    break;
  }
  std::string action, db, workload, format, out;
  std::vector<std::string> args;
  DetectRequest detect;
  po::options_description desc(
      "infergate history add RESULTS... | import PATH... | list | show RUN | export | detect |\n"
      "  calibrate | prune | bisect CHANGE_POINT [-- bisect options] | dashboard | serve\n"
      "  [options]\n"
      "Exit: 0 done, 2 usage or input error (nothing is stored from a refused file; import: also\n"
      "a *.json that is not JSON), 6 detect --newest: the newest commit completes a change point\n"
      "that makes a metric worse, 130 add or import interrupted (whole files stored)");
  desc.add_options()("help,h", "show this help")(
      "action", po::value(&action)->required(),
      "add, import, list, show, export, detect, calibrate, prune, bisect, dashboard or serve")(
      "args", po::value(&args)->multitoken(), "")(
      "db", po::value(&db)->default_value("results/history.sqlite"),
      "the history database (SQLite), created when missing")(
      "workload", po::value(&workload)->default_value(""),
      "list, export, detect: this workload only; calibrate: the A/A workload (required)")(
      "format", po::value(&format)->default_value("json"),
      "export: json or csv; detect: text, json or markdown; calibrate: text or json")(
      "out", po::value(&out)->default_value(""),
      "show, export, detect, calibrate: write here (default: stdout); dashboard: the folder "
      "(default out/history-dashboard)")("machine",
                                         po::value(&detect.filter.machine_key)->default_value(""),
                                         "detect, calibrate: this machine key only")(
      "metric", po::value(&detect.filter.metrics)->multitoken(),
      "detect, calibrate: these stored metrics (tpot_ms.p95, request_throughput_rps, ...; default: "
      "the "
      "default gate's)")("alpha", po::value<double>()->default_value(0.005),
                         "detect: the permutation test's significance level")(
      "permutations", po::value<int>()->default_value(999), "detect: permutations per test")(
      "min-effect", po::value<double>()->default_value(0.05),
      "detect: the smallest change reported, a fraction")(
      "newest", po::bool_switch(&detect.newest_only),
      "detect: only change points the newest commit completes; exit 6 when one is worse")(
      "trials", po::value<int>()->default_value(1000), "calibrate: synthetic histories")(
      "length", po::value<int>()->default_value(30), "calibrate: commits in each")(
      "step", po::value<double>()->default_value(0.10),
      "calibrate: the injected change, a fraction")(
      "keep-runs", po::value<int>(), "prune: keep the newest N runs per workload and machine")(
      "max-age-days", po::value<double>(), "prune: keep the runs younger than D days")(
      "files-only", po::bool_switch(), "prune: drop the stored results files, keep the metrics")(
      "dry-run", po::bool_switch(), "prune: say what would go, change nothing")(
      "no-detect", po::bool_switch(),
      "dashboard, serve: show the recorded change points, detect none")(
      "port", po::value<int>()->default_value(8090), "serve: the loopback port (0: any free)")(
      "no-run-reports", po::bool_switch(), "dashboard: write no runs/<id>.html reports");
  po::positional_options_description pos;
  pos.add("action", 1).add("args", -1);
  try {
    const auto vm = parse_command_line(argc, argv, desc, pos);
    if (!vm) return kExitPass;
    static const std::vector<std::string> actions = {"add",    "import",    "list",      "show",
                                                     "export", "detect",    "calibrate", "prune",
                                                     "bisect", "dashboard", "serve"};
    if (std::find(actions.begin(), actions.end(), action) == actions.end()) {
      throw po::error(
          "unknown action '" + action +
          "' (allowed: add, import, list, show, export, detect, calibrate, prune, bisect, "
          "dashboard, serve)");
    }
    if (action == "detect" || action == "dashboard" || action == "serve") {
      detect.filter.workload = workload;
      detect.format = vm->count("format") && !(*vm)["format"].defaulted() ? format : "text";
      detect.out = out;
      detect = detect_request(*vm, detect);
    }
    if (action == "calibrate") {
      const CalibrateRequest calibrate = calibrate_request(*vm, detect, workload, format, out);
      return history_calibrate(HistoryStore(db), calibrate);
    }
    if (action == "add" || action == "import") install_interrupt_handlers();
    HistoryStore store(db);
    if (action == "detect") return history_detect(store, detect);
    if (action == "add") return add(store, args);
    if (action == "import") return import(store, args);
    if (action == "prune") return prune(store, *vm, workload);
    if (action == "dashboard") return dashboard(store, *vm, detect, out);
    if (action == "serve") return serve(store, *vm, detect);
    if (action == "bisect")
      return history_bisect(store, id_argument(args, "change point"), bisect_args);
    if (!bisect_args.empty()) throw po::error("options after -- are for history bisect only");
    if (action == "list") return list(store, workload);
    if (action == "show") return show(store, args, out);
    return export_history(store, workload, format, out);
  } catch (const po::error& e) {
    std::cerr << "infergate history: " << e.what() << " (see --help)\n";
    return kExitUsage;
  } catch (const HistoryError& e) {
    std::cerr << "infergate history: " << e.what() << "\n";
    return kExitUsage;
  }
}

}  // namespace infergate
