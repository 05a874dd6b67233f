#include "gates/baseline/baseline_store.h"

#include <algorithm>
#include <filesystem>
#include <sstream>

#include "common/io/input_file.h"
#include "common/io/json_file.h"
#include "common/results/machine_key.h"
#include "common/util/safe_file_name.h"
#include "common/util/time_stamp.h"

namespace infergate {

namespace fs = std::filesystem;

namespace {

std::string commit_of(const ResultsFile& r) {
  const nlohmann::json& git = r.manifest.value("git", nlohmann::json::object());
  return git.value("commit", std::string("unknown"));
}

// "2026-11-29T12:36:45Z" -> "20261129T123645Z": a file-name-safe, sortable stamp.
std::string file_stamp(const std::string& iso) {
  std::string out;
  for (const char c : iso) {
    if (c != '-' && c != ':') out += c;
  }
  return out.empty() ? "unknown-time" : out;
}

void append_line(const std::string& path, const std::string& line) {
  // The log only grows: rewrite it whole and atomically so a crash never truncates it.
  std::error_code ec;
  const std::string text = fs::exists(path, ec) ? read_regular_file(path, kMaxJsonFileBytes) : "";
  write_text_atomically(text + line + "\n", path);
}

}  // namespace

std::string BaselineStore::baseline_path(const std::string& machine_key,
                                         const std::string& workload) const {
  return (fs::path(root_) / safe_file_name(machine_key) / (safe_file_name(workload) + ".json"))
      .string();
}

std::string BaselineStore::noise_path(const std::string& machine_key,
                                      const std::string& workload) const {
  return (fs::path(root_) / safe_file_name(machine_key) /
          (safe_file_name(workload) + ".noise.json"))
      .string();
}

std::string BaselineStore::history_dir(const std::string& machine_key,
                                       const std::string& workload) const {
  return (fs::path(root_) / safe_file_name(machine_key) / "history" / safe_file_name(workload))
      .string();
}

std::string BaselineStore::update(const ResultsFile& result) const {
  if (result.incomplete) {
    throw BaselineError(result.source +
                        ": marked incomplete (the run was stopped early); "
                        "a baseline must be a whole run");
  }
  if (result.workload_name.empty()) {
    throw BaselineError(result.source +
                        ": the workload has no name ($.workload.name); "
                        "baselines are stored by workload name");
  }
  const std::string machine = machine_key(result);
  const std::string path = baseline_path(machine, result.workload_name);
  const std::string history = history_dir(machine, result.workload_name);
  nlohmann::json log_line = {{"replaced_at", utc_iso8601_now()},
                             {"new_commit", commit_of(result)},
                             {"new_created_at", result.created_at},
                             {"new_source", result.source}};
  if (fs::exists(path)) {
    const ResultsFile previous = load(machine, result.workload_name);
    const std::string kept = (fs::path(history) / (file_stamp(previous.created_at) + "-" +
                                                   commit_of(previous).substr(0, 12) + ".json"))
                                 .string();
    write_json_atomically(previous.doc, kept);
    log_line["previous_commit"] = commit_of(previous);
    log_line["previous_created_at"] = previous.created_at;
    log_line["previous_kept_as"] = fs::path(kept).filename().string();
  }
  write_json_atomically(result.doc, path);
  append_line((fs::path(history) / "log.jsonl").string(), log_line.dump());
  return path;
}

ResultsFile BaselineStore::load(const std::string& machine_key, const std::string& workload) const {
  const std::string path = baseline_path(machine_key, workload);
  if (!fs::exists(path)) {
    throw BaselineError("no baseline for workload '" + workload + "' on machine '" + machine_key +
                        "' (expected " + path +
                        "); store one with: infergate baseline update RESULT");
  }
  try {
    return load_results(path);
  } catch (const std::exception& e) {
    throw BaselineError(std::string("corrupt baseline: ") + e.what() +
                        " (restore it from git or from its history folder)");
  }
}

ResultsFile BaselineStore::load_for(const ResultsFile& candidate) const {
  return load(machine_key(candidate), candidate.workload_name);
}

std::vector<BaselineEntry> BaselineStore::list() const {
  std::vector<BaselineEntry> entries;
  if (!fs::is_directory(root_)) return entries;
  for (const fs::directory_entry& machine : fs::directory_iterator(root_)) {
    if (!machine.is_directory()) continue;
    for (const fs::directory_entry& file : fs::directory_iterator(machine.path())) {
      const std::string name = file.path().filename().string();
      if (!file.is_regular_file() || file.path().extension() != ".json" ||
          name.ends_with(".noise.json")) {
        continue;
      }
      BaselineEntry e;
      e.machine_key = machine.path().filename().string();
      e.workload = file.path().stem().string();
      e.path = file.path().string();
      e.has_noise = fs::exists(noise_path(e.machine_key, e.workload));
      try {
        const ResultsFile r = load_results(e.path);
        e.commit = commit_of(r);
        e.created_at = r.created_at;
        e.repetitions = r.num_repetitions();
      } catch (const std::exception&) {
        e.commit = "corrupt";
      }
      entries.push_back(std::move(e));
    }
  }
  std::sort(entries.begin(), entries.end(), [](const BaselineEntry& a, const BaselineEntry& b) {
    return std::tie(a.machine_key, a.workload) < std::tie(b.machine_key, b.workload);
  });
  return entries;
}

std::vector<std::string> BaselineStore::history(const std::string& machine_key,
                                                const std::string& workload) const {
  std::vector<std::string> lines;
  const std::string path = (fs::path(history_dir(machine_key, workload)) / "log.jsonl").string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return lines;
  std::istringstream in(read_regular_file(path, kMaxJsonFileBytes));  // a FIFO would block
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace infergate
