#include "cli/report_command.h"

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>

#include "cli/command_line.h"
#include "cli/gate_inputs.h"
#include "cli/report_files.h"
#include "common/io/json_file.h"
#include "gates/report/html_report.h"
#include "gates/verdict/comparison.h"

namespace infergate {

namespace po = boost::program_options;

int report_command(int argc, char** argv) {
  std::vector<std::string> files;
  std::string out_dir, rules_path;
  po::options_description desc(
      "infergate report RESULT [CANDIDATE] --out-dir DIR\n"
      "One file: report.html of that run. Two: baseline and candidate, every report of the "
      "comparison");
  desc.add_options()("help,h", "show this help")("files", po::value(&files)->multitoken(),
                                                 "results files")(
      "out-dir", po::value(&out_dir)->required(), "folder for the reports")(
      "rules", po::value(&rules_path), "rules file (default: built-in gates/default.json)")(
      "allow-env-diff", "evaluate the rules even when the fingerprints differ");
  po::positional_options_description pos;
  pos.add("files", 2);
  std::optional<po::variables_map> vm;
  try {
    vm = parse_command_line(argc, argv, desc, pos);
    if (vm && (files.empty() || files.size() > 2)) throw po::error("give one or two results files");
  } catch (const po::error& e) {
    std::cerr << "infergate report: " << e.what() << " (see --help)\n";
    return 2;
  }
  if (!vm) return 0;
  if (files.size() == 1) {
    const std::string path = (std::filesystem::path(out_dir) / "report.html").string();
    write_text_atomically(html_run_report(load_results(files[0])), path);
    std::cout << "report: " << path << "\n";
    return 0;
  }
  const ResultsFile baseline = load_results(files[0]), candidate = load_results(files[1]);
  check_report_files_writable(out_dir);  // all four, so none is written when one cannot be
  CompareOptions options;
  options.allow_env_diff = vm->count("allow-env-diff") > 0;
  const Comparison c =
      compare_results(baseline, candidate, load_rules_or_default(rules_path), options);
  for (const std::string& f : write_report_files(out_dir, c, baseline, candidate)) {
    std::cout << "report: " << f << "\n";
  }
  std::cout << c.headline() << "\n";
  return 0;
}

}  // namespace infergate
