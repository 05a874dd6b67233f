#include "cli/diagnose_command.h"

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli/command_line.h"
#include "common/io/json_file.h"
#include "common/results/results_file.h"
#include "common/util/time_stamp.h"
#include "gates/diagnose/diagnose.h"
#include "gates/diagnose/diagnosis_section.h"
#include "gates/diagnose/remedy_verification.h"
#include "gates/process/interrupt.h"
#include "gates/report/html_report.h"
#include "gates/verdict/verdict.h"

namespace infergate {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

struct DiagnoseArguments {
  std::string results, workload, json_out, html_out, out_dir;
  bool verify = false;
  double budget_minutes = 10;
  int max_remedies = 0;  // 0: every remedy the budget holds
};

std::optional<DiagnoseArguments> parse(int argc, char** argv) {
  DiagnoseArguments a;
  po::options_description desc(
      "infergate diagnose RESULTS [options]\n"
      "Names the run's dominant symptom with its evidence and proposes ranked remedies as\n"
      "--set overrides of its workload; --verify measures each remedy in paired runs.\n"
      "Exit: 0 diagnosed (healthy or not), 2 usage or input error, 130 interrupted");
  desc.add_options()("help,h", "show this help")("results", po::value(&a.results),
                                                 "results file of `infergate run`")(
      "workload", po::value(&a.workload),
      "workload file --verify runs (default: the one the results embed)")(
      "verify", "run the workload with and without each remedy, in pairs, within --budget")(
      "budget", po::value(&a.budget_minutes)->default_value(a.budget_minutes),
      "minutes --verify may spend, split over the remedies")(
      "remedies", po::value(&a.max_remedies),
      "verify only the first N remedies in rank order (1..100; default: all the budget holds)")(
      "out-dir", po::value(&a.out_dir), "--verify's runs (default out/diagnose-TIME)")(
      "json", po::value(&a.json_out), "write the diagnosis as JSON (infergate.diagnosis/v1)")(
      "html", po::value(&a.html_out), "write the run's HTML report with the diagnosis first");
  po::positional_options_description pos;
  pos.add("results", 1);
  const auto vm = parse_command_line(argc, argv, desc, pos);
  if (!vm) return std::nullopt;
  if (a.results.empty()) throw po::error("give RESULTS");
  if (!(a.budget_minutes > 0 && a.budget_minutes <= 24 * 60)) {
    throw po::error("--budget: more than 0, at most 1440 minutes");
  }
  if (vm->count("remedies") && !(a.max_remedies >= 1 && a.max_remedies <= 100)) {
    throw po::error("--remedies: from 1 to 100");
  }
  a.verify = vm->count("verify") > 0;
  if (a.out_dir.empty()) a.out_dir = "out/diagnose-" + local_compact_now();
  return a;
}

// Paths the workload names, made absolute from the folder the run counted them from.
void absolutize_paths(nlohmann::json& w, const std::string& workload_dir) {
  for (const char* pointer :
       {"/dataset/path", "/target/model/gguf", "/target/model/safetensors", "/quality/text"}) {
    const nlohmann::json::json_pointer p(pointer);
    if (!w.contains(p) || !w[p].is_string()) continue;
    const fs::path path = w[p].get<std::string>();
    if (path.is_relative() && !workload_dir.empty())
      w[p] = (fs::path(workload_dir) / path).string();
  }
}

// The workload --verify runs: --workload, else the resolved one the results embed, written
// beside the runs.
std::string verify_workload(const DiagnoseArguments& a, const ResultsFile& r) {
  if (!a.workload.empty()) return fs::absolute(a.workload).string();
  nlohmann::json w = r.workload;
  absolutize_paths(w, r.workload_dir);
  const std::string path = (fs::absolute(a.out_dir) / "workload.json").string();
  write_json_atomically(w, path);
  return path;
}

// One run of the whole workload (every point), start-up included, from the results' durations.
double seconds_per_run(const ResultsFile& r) {
  double s = 1.5;  // process start and model load
  for (const PointResult& p : r.points) {
    s += p.summary.value("duration_s", 0.0);
  }
  return s;
}

void verify(Diagnosis& d, const DiagnoseArguments& a, const ResultsFile& r) {
  VerifySettings s;
  s.workload_path = verify_workload(a, r);
  s.binary = fs::read_symlink("/proc/self/exe").string();
  s.out_dir = fs::absolute(a.out_dir).string();
  s.budget_seconds = a.budget_minutes * 60;
  s.max_remedies = a.max_remedies;
  s.seconds_per_run_guess = seconds_per_run(r);
  s.progress = [](const std::string& line) { std::cerr << line << "\n"; };
  d.workload_path = s.workload_path;
  d.verify_budget_minutes = a.budget_minutes;
  verify_remedies(d, s);
}

void write_outputs(const Diagnosis& d, const DiagnoseArguments& a, const ResultsFile& r) {
  std::cout << diagnosis_text(d);
  if (!a.json_out.empty()) {
    write_json_atomically(diagnosis_to_json(d), a.json_out);
    std::cout << "diagnosis: " << a.json_out << "\n";
  }
  if (!a.html_out.empty()) {
    write_text_atomically(html_run_report(r, {{"diagnosis", "Diagnosis", diagnosis_section(d)}}),
                          a.html_out);
    std::cout << "report: " << a.html_out << "\n";
  }
}

}  // namespace

int diagnose_command(int argc, char** argv) {
  std::optional<DiagnoseArguments> args;
  try {
    args = parse(argc, argv);
  } catch (const po::error& e) {
    std::cerr << "infergate diagnose: " << e.what() << " (see --help)\n";
    return kExitUsage;
  }
  if (!args) return kExitPass;
  const ResultsFile results = load_results(args->results);
  Diagnosis d = diagnose(results);
  for (const std::string& out : {args->json_out, args->html_out}) {
    if (!out.empty()) check_writable(out);  // before any run
  }
  if (args->verify && !d.healthy()) {
    install_interrupt_handlers();
    try {
      verify(d, *args, results);
    } catch (const Interrupted& e) {
      std::cerr << "infergate diagnose: " << e.what() << "; the runs so far are in "
                << args->out_dir << "\n";
      return 128 + interrupt_signal();
    }
  }
  write_outputs(d, *args, results);
  return kExitPass;
}

}  // namespace infergate
