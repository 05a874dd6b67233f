#include "cli/history_bisect.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/bisect_command.h"
#include "common/io/json_file.h"
#include "common/results/metric_registry.h"
#include "common/util/time_stamp.h"
#include "history/change_point_store.h"

namespace infergate {

namespace {

namespace fs = std::filesystem;

bool given(const std::vector<std::string>& args, const std::string& option) {
  return std::any_of(args.begin(), args.end(), [&](const std::string& a) {
    return a == option || a.rfind(option + "=", 0) == 0;
  });
}

std::string value_of(const std::vector<std::string>& args, const std::string& option) {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i] == option && i + 1 < args.size()) return args[i + 1];
    if (args[i].rfind(option + "=", 0) == 0) return args[i].substr(option.size() + 1);
  }
  return "";
}

bool is_commit(const std::string& c) {
  return !c.empty() && c.rfind("run ", 0) != 0 && !c.ends_with("+dirty");
}

// The workload the change point's first changed run ran, as a file bisect can run at every
// commit: relative dataset paths made absolute against the folder of the file it came from.
std::string write_stored_workload(const HistoryStore& store, const ChangePoint& cp,
                                  const std::string& out_dir) {
  nlohmann::json results = nlohmann::json::parse(store.results_text(cp.run_after));
  nlohmann::json workload = results.at("workload");
  workload.erase("overrides");  // already applied: the file is the resolved workload
  nlohmann::json& dataset = workload["dataset"];
  if (dataset.contains("path") && dataset["path"].is_string()) {
    const fs::path p = dataset["path"].get<std::string>();
    if (p.is_relative()) {
      dataset["path"] = (fs::path(results.value("workload_dir", ".")) / p).string();
    }
  }
  const std::string path = (fs::path(out_dir) / "workload.json").string();
  fs::create_directories(out_dir);
  write_text_atomically(workload.dump(2) + "\n", path);
  return path;
}

// "higher" for a metric where lower is better, and the other way round: bisect hunts a
// regression, so an improvement is found by calling it one.
std::string reversed_direction(const std::string& metric) {
  const std::optional<MetricInfo> info = find_metric(metric.substr(0, metric.find('.')));
  if (!info || info->improves == Improves::kNeither) return "";
  return info->improves == Improves::kLower ? "higher" : "lower";
}

std::vector<std::string> bisect_argv(const HistoryStore& store, const ChangePoint& cp,
                                     const std::vector<std::string>& extra,
                                     const std::string& out_dir) {
  std::vector<std::string> argv = {"bisect",
                                   "--good",
                                   cp.commit_before,
                                   "--bad",
                                   cp.commit_after,
                                   "--metric",
                                   "summary." + cp.series.metric};
  if (!given(extra, "--workload")) {
    argv.insert(argv.end(), {"--workload", write_stored_workload(store, cp, out_dir)});
  }
  if (!given(extra, "--out-dir")) argv.insert(argv.end(), {"--out-dir", out_dir});
  if (!cp.series.sweep.empty()) {  // the change point's sweep point, alone
    argv.insert(argv.end(), {"--set", "sweep=null", "--set", cp.series.sweep});
  }
  if (cp.direction == "better" && !given(extra, "--better")) {
    const std::string better = reversed_direction(cp.series.metric);
    if (!better.empty()) argv.insert(argv.end(), {"--better", better});
  }
  argv.insert(argv.end(), extra.begin(), extra.end());
  return argv;
}

}  // namespace

int history_bisect(HistoryStore& store, int64_t change_point,
                   const std::vector<std::string>& bisect_args) {
  ChangePointStore points(store);
  const std::optional<ChangePoint> cp = points.find(change_point);
  if (!cp) {
    throw HistoryError("history database " + store.path() + ": no change point " +
                       std::to_string(change_point) + " (see history detect)");
  }
  if (!is_commit(cp->commit_before) || !is_commit(cp->commit_after)) {
    throw HistoryError("change point " + std::to_string(change_point) + " lies between '" +
                       cp->commit_before + "' and '" + cp->commit_after +
                       "', not two clean commits: there is no commit range to bisect");
  }
  const std::string out_dir =
      given(bisect_args, "--out-dir")
          ? value_of(bisect_args, "--out-dir")
          : "out/history-bisect-" + std::to_string(change_point) + "-" + local_compact_now();
  std::vector<std::string> argv = bisect_argv(store, *cp, bisect_args, out_dir);
  std::cout << "history bisect: change point " << change_point << " (" << describe(cp->series)
            << ", " << cp->direction << "), commits " << cp->commit_before.substr(0, 12) << ".."
            << cp->commit_after.substr(0, 12) << "\n";
  std::vector<char*> raw;
  for (std::string& a : argv) raw.push_back(a.data());
  raw.push_back(nullptr);
  const int code = bisect_command(int(argv.size()), raw.data());
  const fs::path report = fs::path(out_dir) / "bisect.json";
  if (fs::exists(report)) {
    const nlohmann::json r = nlohmann::json::parse(std::ifstream(report), nullptr, false);
    if (r.is_object() && r.value("status", "") == "found" && r["first_bad"].is_object()) {
      const std::string found = r["first_bad"].value("commit", "");
      points.set_found_commit(change_point, found);
      std::cout << "history bisect: recorded " << found << " on change point " << change_point
                << "\n";
    }
  }
  return code;
}

}  // namespace infergate
