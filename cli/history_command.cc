#include "cli/history_command.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <iostream>

#include "cli/command_line.h"
#include "cli/history_detect.h"
#include "common/io/json_file.h"
#include "gates/verdict/verdict.h"
#include "history/history_export.h"
#include "history/history_store.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

int add(HistoryStore& store, const std::vector<std::string>& files) {
  if (files.empty()) throw po::error("history add takes one or more RESULTS files");
  for (const std::string& f : files) {
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

// `show RUN --out FILE`: the stored results file, byte for byte, for compare or report.
int show(const HistoryStore& store, const std::vector<std::string>& args, const std::string& out) {
  if (args.size() != 1) throw po::error("history show takes one RUN id");
  int64_t id = 0;
  try {
    id = std::stoll(args[0]);
  } catch (const std::exception&) {
    throw po::error("history show: '" + args[0] + "' is not a run id (see history list)");
  }
  const std::string text = store.results_text(id);
  if (out.empty()) {
    std::cout << text;
  } else {
    write_text_atomically(text, out);
  }
  return kExitPass;
}

// Detection's settings, checked before anything is read.
DetectRequest detect_request(const po::variables_map& vm, DetectRequest r) {
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

}  // namespace

int history_command(int argc, char** argv) {
  std::string action, db, workload, format, out;
  std::vector<std::string> args;
  DetectRequest detect;
  po::options_description desc(
      "infergate history add RESULTS... | list | show RUN | export | detect [options]\n"
      "Exit: 0 done, 2 usage or input error (nothing is stored from a refused file), 6 detect\n"
      "--newest: the newest commit completes a change point that makes a metric worse");
  desc.add_options()("help,h", "show this help")("action", po::value(&action)->required(),
                                                 "add, list, show or export")(
      "args", po::value(&args)->multitoken(), "")(
      "db", po::value(&db)->default_value("results/history.sqlite"),
      "the history database (SQLite), created when missing")(
      "workload", po::value(&workload)->default_value(""), "list, export: this workload only")(
      "format", po::value(&format)->default_value("json"), "export: json or csv")(
      "out", po::value(&out)->default_value(""),
      "show, export, detect: write here (default: stdout)")(
      "machine", po::value(&detect.filter.machine_key)->default_value(""),
      "detect: this machine key only")(
      "metric", po::value(&detect.filter.metrics)->multitoken(),
      "detect: these stored metrics (tpot_ms.p95, request_throughput_rps, ...; default: the "
      "default gate's)")("alpha", po::value<double>()->default_value(0.01),
                         "detect: the permutation test's significance level")(
      "permutations", po::value<int>()->default_value(199), "detect: permutations per test")(
      "min-effect", po::value<double>()->default_value(0.05),
      "detect: the smallest change reported, a fraction")(
      "newest", po::bool_switch(&detect.newest_only),
      "detect: only change points the newest commit completes; exit 6 when one is worse");
  po::positional_options_description pos;
  pos.add("action", 1).add("args", -1);
  try {
    const auto vm = parse_command_line(argc, argv, desc, pos);
    if (!vm) return kExitPass;
    if (action != "add" && action != "list" && action != "show" && action != "export" &&
        action != "detect") {
      throw po::error("unknown action '" + action + "' (allowed: add, list, show, export, detect)");
    }
    if (action == "detect") {
      detect.filter.workload = workload;
      detect.format = vm->count("format") && !(*vm)["format"].defaulted() ? format : "text";
      detect.out = out;
      detect = detect_request(*vm, detect);
    }
    HistoryStore store(db);
    if (action == "detect") return history_detect(store, detect);
    if (action == "add") return add(store, args);
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
