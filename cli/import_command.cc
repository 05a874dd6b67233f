#include "cli/import_command.h"

#include <boost/program_options.hpp>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "common/imports/import_error.h"
#include "common/imports/import_results_file.h"
#include "common/imports/imported_repetitions.h"
#include "common/io/atomic_file.h"
#include "history/history_store.h"

namespace infergate {

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

// One results document to write: where, and what it came from.
struct Converted {
  std::string source;
  std::string tool;
  fs::path out;
  nlohmann::json doc;
};

// DIR/<stem>.infergate.json, or <stem>-<k>.infergate.json for the k-th of several runs.
fs::path out_path(const fs::path& dir, const std::string& source, size_t k, size_t runs) {
  const std::string stem = fs::path(source).stem().string();
  const std::string suffix = runs > 1 ? "-" + std::to_string(k + 1) : "";
  return dir / (stem + suffix + ".infergate.json");
}

// Every file converted before anything is written: a refused one leaves nothing behind.
std::vector<Converted> convert_all(const std::vector<std::string>& files, const fs::path& dir) {
  std::vector<Converted> out;
  for (const std::string& file : files) {
    const DetectedTool tool = detect_results_file(file);
    std::vector<nlohmann::json> runs = import_results_runs(file);
    for (size_t k = 0; k < runs.size(); ++k) {
      out.push_back({file, tool.name + ", version " + tool.version,
                     out_path(dir, file, k, runs.size()), std::move(runs[k])});
    }
  }
  for (size_t i = 0; i < out.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (out[i].out == out[j].out) {
        throw std::invalid_argument(out[j].source + " and " + out[i].source + " would both be " +
                                    out[i].out.string() + ": import them into different --out-dir");
      }
    }
  }
  return out;
}

// --as-repetitions: every run one repetition of one results file at `out`.
std::vector<Converted> merged(const std::vector<Converted>& runs, const fs::path& out) {
  std::vector<nlohmann::json> docs;
  std::vector<std::string> sources;
  for (const Converted& c : runs) docs.push_back(c.doc), sources.push_back(c.source);
  const std::string from = std::to_string(runs.size()) + " runs of " + runs.front().tool;
  return {{runs.front().source + " ...", from, out, imported_as_repetitions(docs, sources)}};
}

}  // namespace

int import_command(int argc, char** argv) {
  std::vector<std::string> files;
  std::string out_dir, db, as_repetitions;
  po::options_description desc(
      "infergate import FILE... [options]\n"
      "Reads vllm bench serve's saved JSON, AIPerf's profile_export_aiperf.json (with\n"
      "profile_export.jsonl beside it), GuideLLM's benchmarks report and inference-perf's\n"
      "summary_lifecycle_metrics.json; writes each run as an infergate results file.\n"
      "Exit: 0 done, 2 usage or input error (nothing written or stored)");
  desc.add_options()("help,h", "show this help")(
      "out-dir", po::value(&out_dir)->default_value("."),
      "where the results files go, as STEM.infergate.json (STEM-K.infergate.json for the K-th "
      "run of a file holding several)")(
      "as-repetitions", po::value(&as_repetitions)->value_name("OUT"),
      "the runs of every FILE are repetitions of one workload: write them as one results file, "
      "OUT, so compare judges them with its statistics (default rules: 6 a side)")(
      "db", po::value(&db)->default_value(""),
      "also store them in this history (SQLite path or postgresql:// URL; docs/history.md)");
  po::options_description hidden;
  hidden.add_options()("file", po::value(&files), "results file");
  po::options_description all;
  all.add(desc).add(hidden);
  po::positional_options_description positional;
  positional.add("file", -1);
  if (!parse_command_line(argc, argv, all, positional)) return 0;
  if (files.empty()) throw std::invalid_argument("expected a results file to import (see --help)");
  std::vector<Converted> converted;
  try {
    converted = convert_all(files, out_dir);
    if (!as_repetitions.empty()) converted = merged(converted, as_repetitions);
  } catch (const std::runtime_error& e) {  // ImportError, or ResultsError on a merged file
    std::cerr << "infergate import: " << e.what() << " (nothing written)\n";
    return 2;
  }
  std::unique_ptr<HistoryStore> store = db.empty() ? nullptr : std::make_unique<HistoryStore>(db);
  for (const Converted& c : converted) {
    AtomicFile f(c.out.string());
    f.write(c.doc.dump(2) + "\n");
    f.commit();
    std::cout << c.source << " (" << c.tool << ") -> " << c.out.string() << "\n";
  }
  for (const Converted& c : converted) {
    if (!store) break;
    const AddOutcome o = store->add(c.out.string());
    std::cout << (o.added ? "stored " : "already stored ") << c.out.string() << " as run " << o.id
              << "\n";
  }
  return 0;
}

}  // namespace infergate
