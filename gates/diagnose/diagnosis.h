// What `infergate diagnose` concludes about a results file (docs/diagnose.md): the symptoms
// found, dominant first, each with its evidence in numbers and its ranked remedies, and, after
// --verify, what each remedy measurably did. Written as text, as JSON
// ("infergate.diagnosis/v1") and as a section of the HTML report.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gates/rules/gate_rule.h"

namespace infergate {

inline constexpr const char* kDiagnosisSchema = "infergate.diagnosis/v1";

// A remedy's paired experiment (--verify): the candidate runs with the remedy's sets, the
// baseline without, and the named metric's ratio decides.
struct RemedyCheck {
  std::string outcome;  // confirmed, refuted, worse, inconclusive, not run, failed
  std::string reason;   // one line with the numbers
  int pairs = 0;
  double seconds = 0;
  // The paired comparison: geometric mean of candidate/baseline and its interval (NaN when the
  // experiment did not get that far).
  double ratio = 0, ratio_lo = 0, ratio_hi = 0;
  std::string out_dir;  // the runs and both sides' results
};

struct Remedy {
  std::string name;               // "prefix caching"
  std::vector<std::string> sets;  // workload overrides, "target.engine.prefix_caching=true"
  std::string command;            // a remedy that is no --set (load ranks): what to run instead
  std::string expected;           // the effect expected on `metric`
  std::string cost;               // what it costs
  std::string metric;             // "summary.ttft_ms.p50", the figure --verify judges
  Direction better = Direction::kLowerIsBetter;
  std::optional<RemedyCheck> check;  // after --verify
};

struct Finding {
  std::string rule;      // the rule table's id, e.g. "kv-memory-wall"
  std::string symptom;   // "memory-bound on KV"
  std::string point;     // the sweep point ("" without a sweep)
  std::string evidence;  // "KV usage reached 100% and 41 preemptions happened"
  nlohmann::json measurements = nlohmann::json::object();  // what the rule read
  std::vector<Remedy> remedies;                            // best first
};

struct Diagnosis {
  std::string results_path, workload_name, workload_path;
  std::vector<Finding> findings;                // dominant first (the decision tree's order)
  std::vector<std::string> notes;               // what could not be judged, and why
  std::optional<double> verify_budget_minutes;  // set by --verify

  bool healthy() const { return findings.empty(); }
};

nlohmann::json diagnosis_to_json(const Diagnosis& d);
// The text `infergate diagnose` prints.
std::string diagnosis_text(const Diagnosis& d);
// "--set a=b --set c=d", or the remedy's command.
std::string remedy_overrides(const Remedy& r);

}  // namespace infergate
