// A whole comparison of a candidate results file against a baseline under a rule set: every
// applicable rule evaluated at every sweep point, the fingerprint check, and the overall
// verdict with its exit code (docs/gates.md).
#pragma once

#include <string>
#include <vector>

#include "common/results/results_file.h"
#include "gates/rules/rule_set.h"
#include "gates/verdict/comparability.h"
#include "gates/verdict/rule_evaluation.h"

namespace infergate {

struct CompareOptions {
  bool allow_env_diff = false;
  // Where rules' justification files are looked up (the change's checkout).
  std::string justification_root = ".";
  uint64_t seed = 1;  // of the bootstrap: verdicts are reproducible
  // Repetition i of each side ran next to the other's (`infergate ab`): judge the pairs' ratios
  // (gates/verdict/paired_rule_evaluator.h) instead of two independent samples.
  bool paired = false;
};

// A metric whose value differs between two deterministic (simulated) runs at one sweep point.
struct MetricChange {
  std::string point, metric;
  double baseline = 0, candidate = 0;
  double relative_change = 0;  // candidate / baseline - 1 (NaN when the baseline is 0)
};

// True when both results come from a simulated target (docs/simulator.md): their values are a
// pure function of code, workload and calibration, so they are compared exactly.
bool deterministic_results(const ResultsFile& baseline, const ResultsFile& candidate);

struct Comparison {
  std::string baseline_path, candidate_path, rules_path;
  std::string workload_name;
  double alpha = 0.05, confidence = 0.95;    // of the rule set: the test level and interval width
  std::vector<FieldDifference> differences;  // fingerprint fields that differ
  bool comparable = true;  // false: differences and not allowed; no rule was evaluated
  std::vector<RuleEvaluation> evaluations;
  std::vector<std::string> warnings;  // e.g. incomplete results, uncalibrated thresholds
  int extra_repetitions = 0;          // added by --auto-repeat
  bool paired = false;                // judged as pairs (CompareOptions::paired)
  // Both sides simulated: every rule compares the values exactly (one repetition suffices), and
  // every summary metric that changed at all is listed.
  bool deterministic = false;
  std::vector<MetricChange> changes;

  // kExitIncomparable, else kExitRegression (a blocking regression), else kExitInconclusive (a
  // rule that could fail is inconclusive), else kExitPass (improvements pass).
  int exit_code() const;
  // "PASS", "REGRESSED", "INCONCLUSIVE" or "INCOMPARABLE", following exit_code().
  const char* overall_label() const;
  // The banner: "REGRESSED: 1 of 6 rules", "INCOMPARABLE: 2 fingerprint fields differ", ...
  std::string headline() const;
  // How the rules judged: "paired runs (Wilcoxon signed-rank on the pairs' log ratios)" or
  // "independent repetitions (Mann-Whitney U, bootstrap interval)".
  std::string method() const;
  // The reports' footnote under the rules table: what "change", "interval" and "p" are for
  // this comparison's method (the paired test is not the unpaired one).
  std::string statistics_note() const;
};

// What `compare` exits with for these evaluations (all comparable): kExitRegression if one
// blocks, else kExitInconclusive if a rule that could fail is inconclusive or none was
// evaluated, else kExitPass. calibrate's gate row counts its trials by the same function.
int gate_exit_code(const std::vector<RuleEvaluation>& evaluations);

Comparison compare_results(const ResultsFile& baseline, const ResultsFile& candidate,
                           const RuleSet& rules, const CompareOptions& options);

}  // namespace infergate
