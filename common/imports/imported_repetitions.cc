#include "common/imports/imported_repetitions.h"

#include "common/imports/import_error.h"
#include "common/results/measured_workload.h"
#include "common/results/results_file.h"

namespace infergate {

namespace {

// The keys (one level into `imported`) whose values differ between two measured workloads.
std::string differing_keys(const nlohmann::json& a, const nlohmann::json& b) {
  std::string out;
  const auto add = [&](const std::string& key) { out += (out.empty() ? "" : ", ") + key; };
  for (const auto& [key, value] : a.items()) {
    if (key == "imported" && value.is_object() && b.contains(key) && b[key].is_object()) {
      for (const auto& [inner, v] : value.items()) {
        if (!b[key].contains(inner) || b[key][inner] != v) add(key + "." + inner);
      }
    } else if (!b.contains(key) || b[key] != value) {
      add(key);
    }
  }
  return out.empty() ? "their workload hashes" : out;
}

}  // namespace

nlohmann::json imported_as_repetitions(const std::vector<nlohmann::json>& runs,
                                       const std::vector<std::string>& sources) {
  if (runs.empty()) throw ImportError("no run to merge");
  ResultsFile merged = parse_results(runs[0], sources[0]);
  for (size_t i = 1; i < runs.size(); ++i) {
    const ResultsFile run = parse_results(runs[i], sources[i]);
    if (run.workload_hash != merged.workload_hash) {
      throw ImportError(
          sources[i] + ": not a repetition of " + sources[0] + "'s workload: they differ in " +
          differing_keys(measured_workload(merged.workload), measured_workload(run.workload)));
    }
    RepetitionResult repetition = run.points[0].repetitions[0];
    repetition.index = int(merged.points[0].repetitions.size());
    merged.points[0].repetitions.push_back(std::move(repetition));
  }
  return results_to_json(merged);
}

}  // namespace infergate
