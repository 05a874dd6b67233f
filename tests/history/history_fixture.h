// Results files for the history tests (docs/history.md): the quickstart baseline the gate tests
// use, relabelled with a commit and a time, its TPOT scaled as a test needs.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/temp_dir.h"

namespace infergate::testing {

// The fixture results file from `commit` at `created_at` (its worktree clean).
inline nlohmann::json quickstart_results(const std::string& commit, const std::string& created_at) {
  const std::string path =
      std::string(INFERGATE_SOURCE_DIR) + "/tests/gates/data/quickstart-baseline.json";
  nlohmann::json doc = nlohmann::json::parse(std::ifstream(path));
  doc["manifest"]["git"]["commit"] = commit;
  doc["manifest"]["git"]["dirty"] = false;
  doc["created_at"] = created_at;
  return doc;
}

// Repetition `rep`'s TPOT statistics times `factor`; call point_tpot_from_repetitions after.
inline void scale_repetition_tpot(nlohmann::json& doc, size_t rep, double factor) {
  nlohmann::json& r = doc["points"][0]["repetitions"][rep];
  r.erase("requests");  // their TPOTs would disagree with the summary
  for (auto& [stat, value] : r["summary"]["tpot_ms"].items()) {
    if (stat != "count" && value.is_number()) value = value.get<double>() * factor;
  }
}

// The point's and the run's TPOT as the mean of the repetitions', as the results reader checks.
inline void point_tpot_from_repetitions(nlohmann::json& doc) {
  const nlohmann::json& reps = doc["points"][0]["repetitions"];
  nlohmann::json& point = doc["points"][0]["summary"]["tpot_ms"];
  for (auto& [stat, value] : point.items()) {
    if (stat == "count" || !value.is_number()) continue;
    double sum = 0;
    for (const nlohmann::json& r : reps) sum += r["summary"]["tpot_ms"][stat].get<double>();
    value = sum / double(reps.size());
  }
  doc["summary"]["tpot_ms"] = point;
}

// Every repetition's TPOT times `factor`.
inline void scale_tpot(nlohmann::json& doc, double factor) {
  for (size_t r = 0; r < doc["points"][0]["repetitions"].size(); ++r) {
    scale_repetition_tpot(doc, r, factor);
  }
  point_tpot_from_repetitions(doc);
}

inline std::string write_json(const TempDir& dir, const std::string& name,
                              const nlohmann::json& doc) {
  const std::string path = dir.file(name);
  std::ofstream(path) << doc.dump(2);
  return path;
}

}  // namespace infergate::testing
